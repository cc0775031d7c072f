"""Types of the compiled search core (_core.c)."""

def search(
    size: int,
    rule: int,
    stones: list[tuple[int, int, int]],
    to_move: int,
    budget: float,
    cpu_clock: bool,
) -> tuple[int, int, int, int, int, str]: ...
