// Core helpers shared by the other prelude files. This code runs inside
// (function (host) { ... }) with host, the Go function of host.go, which
// takes an operation name and strings, numbers or booleans. Bytes cross as
// binary strings (one character per byte).
delete globalThis.__folio_host;

const INTERNAL = Symbol('folio.internal');
const LISTENERS = Symbol('folio.listeners');
const config = { maxLogLine: 8192, maxResponse: 5 << 20 };

function define(name, value) {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}

// defineClass gives a class the toStringTag web platform objects have.
function defineClass(cls, tag) {
  Object.defineProperty(cls.prototype, Symbol.toStringTag, { value: tag || cls.name, configurable: true });
  define(cls.name, cls);
}

// callHost runs a host operation; its errors become TypeErrors (the engine's
// own) or, when the message names one, DOMExceptions.
function callHost(op, ...args) {
  try {
    return host(op, ...args);
  } catch (e) {
    const m = /^(\w+Error): (.*)$/s.exec(e && e.message);
    if (m && DOM_ERROR_CODES[m[1]] !== undefined) throw new DOMException(m[2], m[1]);
    throw e;
  }
}

// --- bytes

function isBufferSource(v) {
  return v instanceof ArrayBuffer || ArrayBuffer.isView(v) ||
    (typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer);
}

function viewBytes(v) {
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  throw new TypeError('expected an ArrayBuffer or an ArrayBufferView');
}

function bytesToBinary(u8) {
  let out = '';
  for (let i = 0; i < u8.length; i += 0x2000) {
    out += String.fromCharCode.apply(null, u8.subarray(i, i + 0x2000));
  }
  return out;
}

function binaryToBytes(s) {
  const u8 = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) u8[i] = s.charCodeAt(i);
  return u8;
}

function bufferToBinary(v) {
  return bytesToBinary(viewBytes(v));
}

function binaryToArrayBuffer(s) {
  return binaryToBytes(s).buffer;
}

const ASCII = /^[\x00-\x7f]*$/;

function utf8Encode(str) {
  str = String(str);
  return ASCII.test(str) ? str : callHost('utf8Encode', str);
}

function utf8Decode(bin, fatal, ignoreBOM) {
  if (ASCII.test(bin)) return bin;
  return callHost('utf8Decode', bin, !!fatal, !!ignoreBOM);
}

function randomBinary(n) {
  return callHost('random', n);
}

function hex(bin) {
  let out = '';
  for (let i = 0; i < bin.length; i++) out += bin.charCodeAt(i).toString(16).padStart(2, '0');
  return out;
}

// --- DOMException

const DOM_ERROR_CODES = {
  IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
  NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11,
  SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15,
  TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21,
  QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25,
  OperationError: 0, NotAllowedError: 0, DataError: 0,
};

class DOMException extends Error {
  constructor(message = '', name = 'Error') {
    super(String(message));
    Object.defineProperty(this, 'name', { value: String(name), configurable: true, writable: true });
  }
  get code() { return DOM_ERROR_CODES[this.name] || 0; }
}
defineClass(DOMException);

// --- events (enough for AbortSignal)

class Event {
  constructor(type, init = {}) {
    this[INTERNAL] = { type: String(type), target: null, defaultPrevented: false, stop: false };
    this.bubbles = !!init.bubbles;
    this.cancelable = !!init.cancelable;
    this.timeStamp = Date.now();
  }
  get type() { return this[INTERNAL].type; }
  get target() { return this[INTERNAL].target; }
  get currentTarget() { return this[INTERNAL].target; }
  get defaultPrevented() { return this[INTERNAL].defaultPrevented; }
  preventDefault() { if (this.cancelable) this[INTERNAL].defaultPrevented = true; }
  stopImmediatePropagation() { this[INTERNAL].stop = true; }
  stopPropagation() {}
}
defineClass(Event);

class EventTarget {
  constructor() {
    Object.defineProperty(this, LISTENERS, { value: new Map() });
  }
  addEventListener(type, listener, options) {
    if (listener == null) return;
    const map = listenersOf(this);
    type = String(type);
    if (!map.has(type)) map.set(type, []);
    const list = map.get(type);
    if (list.some((l) => l.listener === listener)) return;
    const once = typeof options === 'object' && options !== null && !!options.once;
    const entry = { listener, once };
    list.push(entry);
    const signal = typeof options === 'object' && options !== null ? options.signal : undefined;
    if (signal) signal.addEventListener('abort', () => this.removeEventListener(type, listener));
  }
  removeEventListener(type, listener) {
    const list = listenersOf(this).get(String(type));
    if (!list) return;
    const i = list.findIndex((l) => l.listener === listener);
    if (i >= 0) list.splice(i, 1);
  }
  dispatchEvent(event) {
    if (!(event instanceof Event)) throw new TypeError('dispatchEvent: argument is not an Event');
    event[INTERNAL].target = this;
    const list = (listenersOf(this).get(event.type) || []).slice();
    for (const l of list) {
      if (l.once) this.removeEventListener(event.type, l.listener);
      try {
        if (typeof l.listener === 'function') l.listener.call(this, event);
        else if (l.listener && typeof l.listener.handleEvent === 'function') l.listener.handleEvent(event);
      } catch (e) {
        reportError(e);
      }
      if (event[INTERNAL].stop) break;
    }
    return !event.defaultPrevented;
  }
}
defineClass(EventTarget);

// defineEventHandler adds an on<type> property to cls. As in browsers, the
// handler takes its place among the listeners when it is first set.
function defineEventHandler(cls, type) {
  const slot = Symbol('on' + type);
  Object.defineProperty(cls.prototype, 'on' + type, {
    configurable: true,
    enumerable: true,
    get() { return this[slot] ? this[slot].handler : null; },
    set(fn) {
      fn = typeof fn === 'function' ? fn : null;
      if (!this[slot]) {
        const state = { handler: null };
        Object.defineProperty(this, slot, { value: state });
        this.addEventListener(type, function (event) {
          if (state.handler) return state.handler.call(this, event);
          return undefined;
        });
      }
      this[slot].handler = fn;
    },
  });
}

function listenersOf(target) {
  let map = target[LISTENERS];
  if (!map) {
    map = new Map();
    Object.defineProperty(target, LISTENERS, { value: map });
  }
  return map;
}

// reportError logs an uncaught error, as a worker's runtime does.
function reportError(e) {
  try {
    logLine('error', 'Uncaught ' + inspect(e, 0));
  } catch (_) {
    // the console itself failed (out of memory…): nothing left to do
  }
}
define('reportError', reportError);

define('self', globalThis);
