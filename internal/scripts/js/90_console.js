// console (captured into Result.Logs), structuredClone, navigator and
// performance.

let logsOpen = true;

function logLine(level, message) {
  if (!logsOpen) {
    host('log', level, '');
    return;
  }
  if (message.length > config.maxLogLine) message = message.slice(0, config.maxLogLine + 1);
  logsOpen = host('log', level, message);
}

function inspect(v, depth, seen) {
  switch (typeof v) {
    case 'string': return depth === 0 ? v : JSON.stringify(v);
    case 'number': return Object.is(v, -0) ? '-0' : String(v);
    case 'bigint': return v + 'n';
    case 'undefined': return 'undefined';
    case 'boolean': return String(v);
    case 'symbol': return v.toString();
    case 'function': return `[Function: ${v.name || '(anonymous)'}]`;
  }
  if (v === null) return 'null';
  if (v instanceof Error) {
    const head = `${v.name || 'Error'}: ${v.message}`;
    if (!v.stack) return head;
    // Constructed errors' stacks start with their header (000_errors.js);
    // the engine's own errors' stacks hold only the frames.
    const stack = String(v.stack).replace(/\n$/, '');
    return stack.startsWith(head) ? stack : head + '\n' + stack;
  }
  seen = seen || [];
  if (seen.includes(v)) return '[Circular]';
  if (depth > 3) return Array.isArray(v) ? '[Array]' : '[Object]';
  seen = seen.concat([v]);
  const inner = (x) => inspect(x, depth + 1, seen);
  if (Array.isArray(v)) {
    const items = v.slice(0, 100).map(inner);
    if (v.length > 100) items.push(`... ${v.length - 100} more items`);
    return '[ ' + items.join(', ') + ' ]';
  }
  if (v instanceof Date) return isNaN(v) ? 'Invalid Date' : v.toISOString();
  if (v instanceof RegExp) return String(v);
  if (v instanceof Map) return `Map(${v.size}) { ` + Array.from(v, ([k, x]) => inner(k) + ' => ' + inner(x)).join(', ') + ' }';
  if (v instanceof Set) return `Set(${v.size}) { ` + Array.from(v, inner).join(', ') + ' }';
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length}) [ ` + Array.from(v.slice(0, 50)).join(', ') + ' ]';
  if (v instanceof ArrayBuffer) return `ArrayBuffer { byteLength: ${v.byteLength} }`;
  if (v instanceof Promise) return 'Promise { <state unknown> }';
  if (v instanceof URL) return `URL { href: '${v.href}' }`;
  if (v instanceof Headers) return 'Headers { ' + Array.from(v, ([k, x]) => `${k}: ${JSON.stringify(x)}`).join(', ') + ' }';
  if (v instanceof Request) return `Request { method: '${v.method}', url: '${v.url}' }`;
  if (v instanceof Response) return `Response { status: ${v.status}, statusText: '${v.statusText}' }`;
  const tag = v[Symbol.toStringTag];
  const keys = Object.keys(v);
  const props = keys.slice(0, 50).map((k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)) + ': ' + inner(v[k]));
  if (keys.length > 50) props.push(`... ${keys.length - 50} more keys`);
  const name = tag || (v.constructor && v.constructor !== Object && v.constructor.name) || '';
  if (props.length === 0) return name ? `${name} {}` : '{}';
  return (name ? name + ' ' : '') + '{ ' + props.join(', ') + ' }';
}

// formatLog follows console.log: printf-like directives in a first string
// argument, then the other arguments inspected and joined by spaces.
function formatLog(args) {
  const parts = [];
  let i = 0;
  if (typeof args[0] === 'string' && args[0].includes('%') && args.length > 1) {
    i = 1;
    parts.push(args[0].replace(/%([sdifoOjc%])/g, (m, d) => {
      if (d === '%') return '%';
      if (i >= args.length) return m;
      const a = args[i++];
      switch (d) {
        case 's': return typeof a === 'string' ? a : inspect(a, 1);
        case 'd': case 'i': return typeof a === 'object' ? 'NaN' : String(d === 'i' ? parseInt(a) : Number(a));
        case 'f': return String(parseFloat(a));
        case 'j': try { return JSON.stringify(a); } catch (e) { return '[Circular]'; }
        case 'c': return '';
        default: return inspect(a, 1);
      }
    }));
  }
  for (; i < args.length; i++) parts.push(inspect(args[i], 0));
  return parts.join(' ');
}

function logger(level) {
  return function (...args) {
    if (!logsOpen) {
      host('log', level, '');
      return;
    }
    logLine(level, formatLog(args));
  };
}

const counts = new Map();
const timersByLabel = new Map();

const consoleObject = {
  log: logger('log'),
  info: logger('info'),
  warn: logger('warn'),
  error: logger('error'),
  debug: logger('debug'),
  trace: logger('debug'),
  dir: (v) => logLine('log', inspect(v, 0)),
  table: logger('log'),
  assert(cond, ...args) {
    if (!cond) logLine('error', 'Assertion failed' + (args.length ? ': ' + formatLog(args) : ''));
  },
  count(label = 'default') {
    const n = (counts.get(label) || 0) + 1;
    counts.set(label, n);
    logLine('log', `${label}: ${n}`);
  },
  countReset(label = 'default') { counts.delete(label); },
  time(label = 'default') { timersByLabel.set(label, Date.now()); },
  timeEnd(label = 'default') {
    if (!timersByLabel.has(label)) return;
    logLine('log', `${label}: ${Date.now() - timersByLabel.get(label)}ms`);
    timersByLabel.delete(label);
  },
  timeLog(label = 'default', ...args) {
    if (!timersByLabel.has(label)) return;
    logLine('log', `${label}: ${Date.now() - timersByLabel.get(label)}ms` + (args.length ? ' ' + formatLog(args) : ''));
  },
  group: logger('log'),
  groupCollapsed: logger('log'),
  groupEnd() {},
};
define('console', consoleObject);

// structuredClone copies what the structured clone algorithm copies, minus
// transfer: primitives, plain objects, arrays, Date, RegExp, Map, Set,
// ArrayBuffer and views, errors, and Blob/File (shared: they are immutable).
const PLATFORM_CLASSES = () => [Request, Response, Headers, URL, URLSearchParams, FormData, AbortController,
  AbortSignal, EventTarget, Event, TextEncoder, TextDecoder, CryptoKey];

define('structuredClone', function structuredClone(value, options) {
  if (options && options.transfer && options.transfer.length) {
    throw new DOMException('structuredClone: transfer is not supported', 'DataCloneError');
  }
  const memory = new Map();
  const clone = (v) => {
    if (typeof v === 'function' || typeof v === 'symbol') {
      throw new DOMException(`${typeof v === 'function' ? 'function' : 'Symbol'} could not be cloned.`, 'DataCloneError');
    }
    if (typeof v !== 'object' || v === null) return v;
    if (memory.has(v)) return memory.get(v);
    let out;
    if (Array.isArray(v)) {
      out = new Array(v.length);
      memory.set(v, out);
      for (const k of Object.keys(v)) out[k] = clone(v[k]);
      return out;
    }
    if (v instanceof Date) out = new Date(v.getTime());
    else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
    else if (v instanceof ArrayBuffer) out = v.slice(0);
    else if (v instanceof DataView) out = new DataView(clone(v.buffer), v.byteOffset, v.byteLength);
    else if (ArrayBuffer.isView(v)) out = new v.constructor(clone(v.buffer), v.byteOffset, v.length);
    else if (v instanceof Blob) out = v;
    else if (v instanceof Boolean || v instanceof Number || v instanceof String) out = Object(v.valueOf());
    else if (v instanceof Error) {
      const Ctor = { EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError }[v.name] || Error;
      out = new Ctor(v.message);
      if (v.stack !== undefined) out.stack = v.stack;
      if ('cause' in v) out.cause = clone(v.cause);
    } else if (v instanceof Map) {
      out = new Map();
      memory.set(v, out);
      for (const [k, x] of v) out.set(clone(k), clone(x));
      return out;
    } else if (v instanceof Set) {
      out = new Set();
      memory.set(v, out);
      for (const x of v) out.add(clone(x));
      return out;
    } else if (v instanceof WeakMap || v instanceof WeakSet || v instanceof Promise) {
      throw new DOMException(`${v.constructor.name} object could not be cloned.`, 'DataCloneError');
    } else {
      // Platform objects (Request, Headers…) are not serializable; class
      // instances are cloned as plain objects, as the algorithm does.
      const platform = PLATFORM_CLASSES().find((C) => v instanceof C);
      if (platform) throw new DOMException(`${platform.name} object could not be cloned.`, 'DataCloneError');
      out = {};
      memory.set(v, out);
      for (const k of Object.keys(v)) out[k] = clone(v[k]);
      return out;
    }
    memory.set(v, out);
    return out;
  };
  return clone(value);
});

define('navigator', { userAgent: 'Folio-Scripts', hardwareConcurrency: 1, language: 'en' });

const timeOrigin = Date.now();
define('performance', {
  timeOrigin,
  now() { return Date.now() - timeOrigin; },
  mark() {},
  measure() {},
});
