// Blob, File and FormData, with the multipart/form-data encoder (the parser
// is Go's, see form.go).

function blobType(type) {
  type = type === undefined ? '' : String(type);
  return /^[\x20-\x7e]*$/.test(type) ? type.toLowerCase() : '';
}

class Blob {
  constructor(parts = [], options = {}) {
    if (typeof parts !== 'object' || parts === null || typeof parts[Symbol.iterator] !== 'function') {
      throw new TypeError("Blob: the first argument must be an iterable of parts");
    }
    let bin = '';
    for (const part of parts) {
      if (part instanceof Blob) bin += part[INTERNAL].bin;
      else if (isBufferSource(part)) bin += bufferToBinary(part);
      else bin += utf8Encode(String(part));
    }
    this[INTERNAL] = { bin, type: blobType(options && options.type) };
  }
  get size() { return this[INTERNAL].bin.length; }
  get type() { return this[INTERNAL].type; }
  slice(start = 0, end = undefined, type = '') {
    const bin = this[INTERNAL].bin;
    const b = new Blob([], { type });
    b[INTERNAL].bin = bin.slice(start, end === undefined ? bin.length : end);
    return b;
  }
  async text() { return utf8Decode(this[INTERNAL].bin, false, false); }
  async arrayBuffer() { return binaryToArrayBuffer(this[INTERNAL].bin); }
  async bytes() { return binaryToBytes(this[INTERNAL].bin); }
  stream() { return bodyStream(this[INTERNAL].bin); }
}
defineClass(Blob);

class File extends Blob {
  constructor(parts, name, options = {}) {
    if (arguments.length < 2) throw new TypeError('File: 2 arguments required');
    super(parts, options);
    this[INTERNAL].name = String(name);
    this[INTERNAL].lastModified = options && options.lastModified !== undefined ? Number(options.lastModified) : Date.now();
  }
  get name() { return this[INTERNAL].name; }
  get lastModified() { return this[INTERNAL].lastModified; }
}
defineClass(File);

function blobFromBinary(bin, type) {
  const b = new Blob([], { type });
  b[INTERNAL].bin = bin;
  return b;
}

function fileFromBinary(bin, name, type) {
  const f = new File([], name, { type });
  f[INTERNAL].bin = bin;
  return f;
}

function formValue(value, filename) {
  if (value instanceof Blob) {
    const name = filename !== undefined ? String(filename) : value instanceof File ? value.name : 'blob';
    if (value instanceof File && filename === undefined) return value;
    return fileFromBinary(value[INTERNAL].bin, name, value.type);
  }
  return toUSVString(value);
}

class FormData {
  constructor(form) {
    if (form !== undefined) throw new TypeError('FormData: an HTML form element is not supported');
    this[INTERNAL] = { list: [] };
  }
  append(name, value, filename) {
    this[INTERNAL].list.push([toUSVString(name), formValue(value, filename)]);
  }
  delete(name) {
    name = toUSVString(name);
    this[INTERNAL].list = this[INTERNAL].list.filter(([k]) => k !== name);
  }
  get(name) {
    name = toUSVString(name);
    const e = this[INTERNAL].list.find(([k]) => k === name);
    return e ? e[1] : null;
  }
  getAll(name) {
    name = toUSVString(name);
    return this[INTERNAL].list.filter(([k]) => k === name).map(([, v]) => v);
  }
  has(name) {
    name = toUSVString(name);
    return this[INTERNAL].list.some(([k]) => k === name);
  }
  set(name, value, filename) {
    name = toUSVString(name);
    value = formValue(value, filename);
    const i = this[INTERNAL];
    const at = i.list.findIndex(([k]) => k === name);
    if (at < 0) {
      i.list.push([name, value]);
    } else {
      i.list[at] = [name, value];
      i.list = i.list.filter(([k], j) => j <= at || k !== name);
    }
  }
  forEach(callback, thisArg) {
    for (const [k, v] of this[INTERNAL].list.slice()) callback.call(thisArg, v, k, this);
  }
  *entries() { for (const [k, v] of this[INTERNAL].list.slice()) yield [k, v]; }
  *keys() { for (const [k] of this[INTERNAL].list.slice()) yield k; }
  *values() { for (const [, v] of this[INTERNAL].list.slice()) yield v; }
  [Symbol.iterator]() { return this.entries(); }
}
defineClass(FormData);

// escapeFormName escapes a field or file name as the HTML standard's
// multipart/form-data encoder does (quotes and newlines percent-encoded).
function escapeFormName(name) {
  return utf8Encode(name.replace(/\r\n|\r|\n/g, '\r\n').replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

// encodeMultipart returns the body and content type of a FormData.
function encodeMultipart(form) {
  const boundary = '----FolioFormBoundary' + hex(randomBinary(12));
  let bin = '';
  for (const [name, value] of form[INTERNAL].list) {
    bin += '--' + boundary + '\r\nContent-Disposition: form-data; name="' + escapeFormName(name) + '"';
    if (value instanceof File) {
      bin += '; filename="' + escapeFormName(value.name) + '"\r\nContent-Type: ' +
        (value.type || 'application/octet-stream') + '\r\n\r\n' + value[INTERNAL].bin + '\r\n';
    } else {
      bin += '\r\n\r\n' + utf8Encode(value.replace(/\r\n|\r|\n/g, '\r\n')) + '\r\n';
    }
  }
  bin += '--' + boundary + '--\r\n';
  return { bin, type: 'multipart/form-data; boundary=' + boundary };
}

// decodeForm parses a body as FormData according to its content type.
function decodeForm(bin, contentType) {
  const type = (contentType || '').split(';')[0].trim().toLowerCase();
  const form = new FormData();
  if (type === 'multipart/form-data') {
    let entries;
    try {
      entries = JSON.parse(callHost('parseForm', contentType, bin));
    } catch (e) {
      throw new TypeError(e.message);
    }
    for (const e of entries || []) {
      if (e.data !== undefined) form.append(e.name, fileFromBinary(e.data, e.filename, e.type || ''));
      else form.append(e.name, e.value);
    }
    return form;
  }
  if (type === 'application/x-www-form-urlencoded') {
    for (const [k, v] of new URLSearchParams(utf8Decode(bin, false, true))) form.append(k, v);
    return form;
  }
  throw new TypeError(`could not parse content as FormData: unsupported content type "${contentType || ''}"`);
}
