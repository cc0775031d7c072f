// The one encode/decode pair of the browser client: maps <-> MessagePack frames.
// The vendored @msgpack/msgpack UMD bundle (vendor/msgpack.min.js) is loaded by a
// classic <script> before this module and leaves `MessagePack` on the global object.

export const PROTOCOL = 1;
export const MAX_SERVER_FRAME = 8 * 1024 * 1024; // as protocol/codec.py MAX_SERVER_FRAME

const MP = globalThis.MessagePack;
if (!MP) throw new Error("vendor/msgpack.min.js did not load");

const decoder = new MP.Decoder({
  maxStrLength: MAX_SERVER_FRAME,
  maxBinLength: MAX_SERVER_FRAME,
  maxArrayLength: MAX_SERVER_FRAME,
  maxMapLength: MAX_SERVER_FRAME,
  maxExtLength: 0, // ext types are not part of the protocol
});
const encoder = new MP.Encoder({ ignoreUndefined: true });

/** A map as one binary frame. */
export function encode(map) {
  return encoder.encode(map);
}

/** A binary frame as a map with a string `type`; throws on anything else. */
export function decode(data) {
  if (!(data instanceof ArrayBuffer)) throw new Error("the protocol uses binary frames only");
  if (data.byteLength > MAX_SERVER_FRAME) throw new Error("frame too large");
  const obj = decoder.decode(new Uint8Array(data));
  if (obj === null || typeof obj !== "object" || Array.isArray(obj) || typeof obj.type !== "string") {
    throw new Error("a frame must be a map with a string 'type'");
  }
  return obj;
}
