// AbortController and AbortSignal, with AbortSignal.abort, .timeout and .any.

// AbortSignal has no public constructor: the prelude makes signals through
// newAbortSignal, which lets the constructor run once.
let signalToken = false;

function newAbortSignal() {
  signalToken = true;
  try {
    return new AbortSignal();
  } finally {
    signalToken = false;
  }
}

class AbortSignal extends EventTarget {
  constructor() {
    if (!signalToken) throw new TypeError('Illegal constructor: use an AbortController');
    super();
    this[INTERNAL] = { aborted: false, reason: undefined };
  }
  get aborted() { return this[INTERNAL].aborted; }
  get reason() { return this[INTERNAL].reason; }
  throwIfAborted() {
    if (this[INTERNAL].aborted) throw this[INTERNAL].reason;
  }
  static abort(reason) {
    const s = newAbortSignal();
    abortSignal(s, reason);
    return s;
  }
  static timeout(ms) {
    const s = newAbortSignal();
    setTimeout(() => abortSignal(s, new DOMException('The operation timed out.', 'TimeoutError')), ms);
    return s;
  }
  static any(signals) {
    const s = newAbortSignal();
    for (const other of signals) {
      if (other.aborted) {
        abortSignal(s, other.reason);
        return s;
      }
    }
    for (const other of signals) other.addEventListener('abort', () => abortSignal(s, other.reason), { once: true });
    return s;
  }
}
defineClass(AbortSignal);
defineEventHandler(AbortSignal, 'abort');

function abortSignal(signal, reason) {
  const i = signal[INTERNAL];
  if (i.aborted) return;
  i.aborted = true;
  i.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
  signal.dispatchEvent(new Event('abort'));
}

class AbortController {
  constructor() {
    this[INTERNAL] = { signal: newAbortSignal() };
  }
  get signal() { return this[INTERNAL].signal; }
  abort(reason) { abortSignal(this[INTERNAL].signal, reason); }
}
defineClass(AbortController);
