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

// incompleteTail returns where an unfinished UTF-8 sequence at the end of
// bin starts (bin.length when there is none), for streaming decodes.
function incompleteTail(bin) {
  let i = bin.length - 1;
  let continuation = 0;
  while (i >= 0 && continuation < 3 && (bin.charCodeAt(i) & 0xC0) === 0x80) {
    i--;
    continuation++;
  }
  if (i < 0) return bin.length;
  const lead = bin.charCodeAt(i);
  const need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  return lead >= 0xC0 && bin.length - i < need ? i : bin.length;
}

class TextDecoder {
  constructor(label = 'utf-8', options = {}) {
    label = String(label).trim().toLowerCase();
    if (!UTF8_LABELS.includes(label)) {
      throw new RangeError(`TextDecoder: the encoding "${label}" is not supported (only utf-8 is)`);
    }
    this[INTERNAL] = {
      fatal: !!(options && options.fatal), ignoreBOM: !!(options && options.ignoreBOM),
      pending: '', started: false,
    };
  }
  get encoding() { return 'utf-8'; }
  get fatal() { return this[INTERNAL].fatal; }
  get ignoreBOM() { return this[INTERNAL].ignoreBOM; }
  decode(input, options) {
    const i = this[INTERNAL];
    const stream = !!(options && options.stream);
    let bin = i.pending;
    if (input !== undefined && input !== null) {
      if (!isBufferSource(input)) throw new TypeError('TextDecoder.decode: input must be an ArrayBuffer or an ArrayBufferView');
      bin += bufferToBinary(input);
    }
    i.pending = '';
    if (stream) {
      const cut = incompleteTail(bin);
      i.pending = bin.slice(cut);
      bin = bin.slice(0, cut);
    }
    // A BOM is dropped only at the start of the stream.
    const ignoreBOM = i.ignoreBOM || i.started;
    if (bin.length > 0) i.started = stream;
    if (!stream) i.started = false;
    try {
      return callHost('utf8Decode', bin, i.fatal, ignoreBOM);
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
