// TextEncoder, TextDecoder (UTF-8 only), atob and btoa.

class TextEncoder {
  get encoding() { return 'utf-8'; }
  encode(input = '') {
    return binaryToBytes(utf8Encode(String(input)));
  }
  encodeInto(source, destination) {
    if (!(destination instanceof Uint8Array)) throw new TypeError('encodeInto: destination must be a Uint8Array');
    source = String(source);
    let read = 0;
    let written = 0;
    for (const ch of source) {
      const bytes = utf8Encode(ch);
      if (written + bytes.length > destination.length) break;
      for (let i = 0; i < bytes.length; i++) destination[written++] = bytes.charCodeAt(i);
      read += ch.length;
    }
    return { read, written };
  }
}
defineClass(TextEncoder);

const UTF8_LABELS = ['utf-8', 'utf8', 'unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'x-unicode20utf8'];

class TextDecoder {
  constructor(label = 'utf-8', options = {}) {
    label = String(label).trim().toLowerCase();
    if (!UTF8_LABELS.includes(label)) {
      throw new RangeError(`TextDecoder: the encoding "${label}" is not supported (only utf-8 is)`);
    }
    this[INTERNAL] = { fatal: !!(options && options.fatal), ignoreBOM: !!(options && options.ignoreBOM) };
  }
  get encoding() { return 'utf-8'; }
  get fatal() { return this[INTERNAL].fatal; }
  get ignoreBOM() { return this[INTERNAL].ignoreBOM; }
  decode(input, options) {
    if (options && options.stream) {
      throw new TypeError('TextDecoder: streaming decode is not supported');
    }
    if (input === undefined || input === null) return '';
    if (!isBufferSource(input)) throw new TypeError('TextDecoder.decode: input must be an ArrayBuffer or an ArrayBufferView');
    const bin = bufferToBinary(input);
    const { fatal, ignoreBOM } = this[INTERNAL];
    try {
      return callHost('utf8Decode', bin, fatal, ignoreBOM);
    } catch (e) {
      throw new TypeError('TextDecoder.decode: ' + e.message);
    }
  }
}
defineClass(TextDecoder);

define('btoa', function btoa(data) {
  if (arguments.length === 0) throw new TypeError('btoa: 1 argument required');
  return callHost('btoa', String(data));
});

define('atob', function atob(data) {
  if (arguments.length === 0) throw new TypeError('atob: 1 argument required');
  return callHost('atob', String(data));
});
