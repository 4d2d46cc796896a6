// Error stacks as Node and Workers (V8) write them: "Name: message" and
// then the frames. QuickJS's own `stack` holds only the frames, and
// @gitbook/runtime logs `error.stack` of what a handler threw, which then
// said nothing of what went wrong. The error constructors are wrapped so
// that every error a script or the prelude constructs (new Error, its
// subclasses, DOMException) gets a V8-style stack, written when first
// read, with the name and message it has then (a subclass sets its name
// after super()). Errors the engine raises itself (a TypeError from
// reading a property of undefined) keep QuickJS's frames-only stack: no
// JavaScript runs when it creates them; console and Folio's traces add
// their header when they print them.
(() => {
  const header = (e) => {
    const name = e.name === undefined ? 'Error' : String(e.name);
    const message = e.message === undefined ? '' : String(e.message);
    if (!name) return message;
    return message ? name + ': ' + message : name;
  };
  const giveStack = (e) => {
    const d = Object.getOwnPropertyDescriptor(e, 'stack');
    if (!d || typeof d.value !== 'string') return;
    let lines = d.value.split('\n').filter((l) => l !== '');
    // Leave out the frames of Reflect.construct and of the wrapper below.
    if (lines.length > 1 && lines[0].includes('at construct (native)')) lines = lines.slice(2);
    const frames = lines.join('\n');
    let text;
    Object.defineProperty(e, 'stack', {
      get() {
        if (text === undefined) text = frames ? header(this) + '\n' + frames : header(this);
        return text;
      },
      set(v) {
        Object.defineProperty(this, 'stack', { value: v, writable: true, configurable: true, enumerable: false });
      },
      configurable: true,
      enumerable: false,
    });
  };
  let base = null;
  for (const name of ['Error', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError',
    'AggregateError', 'InternalError']) {
    const Native = globalThis[name];
    if (typeof Native !== 'function') continue;
    const Wrapped = {
      [name]: function (...args) {
        const e = Reflect.construct(Native, args, new.target || Wrapped);
        giveStack(e);
        return e;
      },
    }[name];
    for (const key of Reflect.ownKeys(Native)) {
      if (key !== 'prototype') Object.defineProperty(Wrapped, key, Object.getOwnPropertyDescriptor(Native, key));
    }
    Object.defineProperty(Wrapped, 'prototype', { value: Native.prototype, writable: false, enumerable: false, configurable: false });
    Object.defineProperty(Native.prototype, 'constructor', { value: Wrapped, writable: true, enumerable: false, configurable: true });
    if (base) Object.setPrototypeOf(Wrapped, base);
    else base = Wrapped;
    Object.defineProperty(globalThis, name, { value: Wrapped, writable: true, enumerable: false, configurable: true });
  }
})();
