// Request and Response over a shared body. A body is held whole, as a binary
// string; streams exist only as a minimal reader over it (body.getReader()).

// extractBody turns a BodyInit into bytes and the content type it implies.
function extractBody(init) {
  if (typeof init === 'string') return { bin: utf8Encode(init), type: 'text/plain;charset=UTF-8' };
  if (init instanceof URLSearchParams) {
    return { bin: utf8Encode(init.toString()), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  }
  if (init instanceof FormData) return encodeMultipart(init);
  if (init instanceof Blob) return { bin: init[INTERNAL].bin, type: init.type || null };
  if (isBufferSource(init)) return { bin: bufferToBinary(init), type: null };
  if (init instanceof BinaryBody) return { bin: init.bin, type: null };
  if (init && typeof init.getReader === 'function') {
    throw new TypeError('ReadableStream bodies are not supported by Folio\'s script runtime; pass a string, ArrayBuffer, Blob or FormData');
  }
  return { bin: utf8Encode(String(init)), type: 'text/plain;charset=UTF-8' };
}

// BinaryBody carries bytes Go handed over, so they are not re-encoded.
class BinaryBody {
  constructor(bin) { this.bin = bin; }
}

// consumeBody returns the bytes of obj's body and marks it used; a null body
// reads as empty and is never "used", as in the Fetch standard.
function consumeBody(obj) {
  const i = obj[INTERNAL];
  if (i.bin === null) return '';
  if (i.used) throw new TypeError('Body has already been used. It can only be used once; use clone() to read it twice.');
  i.used = true;
  return i.bin;
}

// bodyStream is a minimal ReadableStream: one chunk, then done.
function bodyStream(bin, owner) {
  let sent = false;
  let locked = false;
  const read = async () => {
    if (sent) return { done: true, value: undefined };
    sent = true;
    const chunk = owner ? consumeBody(owner) : bin;
    return { done: false, value: binaryToBytes(chunk) };
  };
  return {
    get locked() { return locked; },
    getReader() {
      if (locked) throw new TypeError('the stream is locked to a reader');
      locked = true;
      return { read, releaseLock() { locked = false; }, cancel: async () => { sent = true; }, closed: Promise.resolve() };
    },
    cancel: async () => { sent = true; },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const r = await read();
        if (r.done) return;
        yield r.value;
      }
    },
    get [Symbol.toStringTag]() { return 'ReadableStream'; },
  };
}

class Body {
  get bodyUsed() { return this[INTERNAL].used; }
  get body() {
    const i = this[INTERNAL];
    if (i.bin === null) return null;
    if (!i.stream) i.stream = bodyStream(null, this);
    return i.stream;
  }
  async arrayBuffer() { return binaryToArrayBuffer(consumeBody(this)); }
  async bytes() { return binaryToBytes(consumeBody(this)); }
  async text() { return utf8Decode(consumeBody(this), false, false); }
  async json() { return JSON.parse(utf8Decode(consumeBody(this), false, false)); }
  async blob() { return blobFromBinary(consumeBody(this), this.headers.get('content-type') || ''); }
  async formData() { return decodeForm(consumeBody(this), this.headers.get('content-type')); }
}

const NORMALIZED_METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'];
const FORBIDDEN_METHODS = ['CONNECT', 'TRACE', 'TRACK'];
const REDIRECT_MODES = ['follow', 'manual', 'error'];

class Request extends Body {
  constructor(input, init = {}) {
    super();
    if (arguments.length === 0) throw new TypeError('Request: 1 argument required');
    if (init === null || init === undefined) init = {};
    const src = input instanceof Request ? input : null;
    let url;
    if (src) {
      url = src.url;
    } else {
      try {
        url = new URL(input instanceof URL ? input.href : String(input)).href;
      } catch (e) {
        throw new TypeError(`Invalid URL: ${String(input)} (requests need an absolute URL)`);
      }
    }
    let method = init.method !== undefined ? String(init.method) : src ? src.method : 'GET';
    if (!TOKEN.test(method)) throw new TypeError(`Invalid method: "${method}"`);
    if (FORBIDDEN_METHODS.includes(method.toUpperCase())) throw new TypeError(`Forbidden method: "${method}"`);
    if (NORMALIZED_METHODS.includes(method.toUpperCase())) method = method.toUpperCase();
    const headers = new Headers(init.headers !== undefined ? init.headers : src ? src.headers : undefined);
    let bin = null;
    let type = null;
    if (init.body !== undefined && init.body !== null) {
      ({ bin, type } = extractBody(init.body));
    } else if (src && init.body === undefined && src[INTERNAL].bin !== null) {
      bin = consumeBody(src);
    }
    if (bin !== null && (method === 'GET' || method === 'HEAD')) {
      throw new TypeError('Request with a GET or HEAD method cannot have a body.');
    }
    if (type && !headers.has('content-type')) headers.set('content-type', type);
    const redirect = init.redirect !== undefined ? String(init.redirect) : src ? src.redirect : 'follow';
    if (!REDIRECT_MODES.includes(redirect)) throw new TypeError(`Invalid redirect mode: "${redirect}"`);
    let signal = init.signal !== undefined ? init.signal : src ? src.signal : null;
    if (signal !== null && !(signal instanceof AbortSignal)) throw new TypeError('Request: signal must be an AbortSignal');
    this[INTERNAL] = {
      bin, used: false, url, method, headers, redirect,
      signal: signal || newAbortSignal(),
      cf: init.cf !== undefined ? init.cf : src ? src.cf : undefined,
    };
  }
  get url() { return this[INTERNAL].url; }
  get method() { return this[INTERNAL].method; }
  get headers() { return this[INTERNAL].headers; }
  get redirect() { return this[INTERNAL].redirect; }
  get signal() { return this[INTERNAL].signal; }
  get cf() { return this[INTERNAL].cf; }
  get keepalive() { return false; }
  get cache() { return 'default'; }
  get credentials() { return 'same-origin'; }
  get mode() { return 'cors'; }
  get integrity() { return ''; }
  clone() {
    const i = this[INTERNAL];
    if (i.used) throw new TypeError('Request.clone: the body has already been used');
    const r = new Request(this, { body: null });
    r[INTERNAL].bin = i.bin;
    return r;
  }
}
defineClass(Request);

const NULL_BODY_STATUSES = [101, 204, 205, 304];
const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

class Response extends Body {
  constructor(body = null, init = {}) {
    super();
    if (init === null || init === undefined) init = {};
    const status = init.status === undefined ? 200 : Number(init.status);
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      throw new RangeError(`Response: the status ${init.status} is not in the range 200 to 599`);
    }
    const statusText = init.statusText === undefined ? '' : String(init.statusText);
    if (/[\r\n]/.test(statusText)) throw new TypeError('Response: invalid statusText');
    const headers = new Headers(init.headers);
    let bin = null;
    if (body !== null && body !== undefined) {
      if (NULL_BODY_STATUSES.includes(status)) {
        throw new TypeError(`Response with null body status ${status} cannot have a body`);
      }
      const extracted = extractBody(body);
      bin = extracted.bin;
      if (extracted.type && !headers.has('content-type')) headers.set('content-type', extracted.type);
    }
    this[INTERNAL] = { bin, used: false, status, statusText, headers, url: '', redirected: false, type: 'default' };
  }
  static json(data, init = {}) {
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError('Response.json: the data is not JSON serializable');
    const headers = new Headers(init && init.headers);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return new Response(text, Object.assign({}, init, { headers }));
  }
  static redirect(url, status = 302) {
    if (!REDIRECT_STATUSES.includes(status)) throw new RangeError(`Response.redirect: invalid status ${status}`);
    const location = new URL(String(url)).href;
    return new Response(null, { status, headers: { location } });
  }
  static error() {
    const r = new Response();
    Object.assign(r[INTERNAL], { status: 0, type: 'error' });
    return r;
  }
  get status() { return this[INTERNAL].status; }
  get statusText() { return this[INTERNAL].statusText; }
  get ok() { return this[INTERNAL].status >= 200 && this[INTERNAL].status <= 299; }
  get headers() { return this[INTERNAL].headers; }
  get url() { return this[INTERNAL].url; }
  get redirected() { return this[INTERNAL].redirected; }
  get type() { return this[INTERNAL].type; }
  get webSocket() { return null; }
  clone() {
    const i = this[INTERNAL];
    if (i.used) throw new TypeError('Response.clone: the body has already been used');
    const r = new Response();
    r[INTERNAL] = Object.assign({}, i, { headers: new Headers(i.headers), stream: undefined });
    return r;
  }
}
defineClass(Response);

// makeResponse builds a Response from what Go's fetch returned; any status
// is allowed there.
function makeResponse(status, statusText, pairs, bin, url, redirected) {
  const r = new Response();
  const headers = new Headers();
  for (const [k, v] of pairs) headers[INTERNAL].map.has(k) ? headers[INTERNAL].map.get(k).push(v) : headers[INTERNAL].map.set(k, [v]);
  r[INTERNAL] = { bin, used: false, status, statusText, headers, url, redirected, type: 'basic' };
  return r;
}
