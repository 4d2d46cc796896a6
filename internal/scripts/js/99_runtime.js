// The entry points Go's event loop calls (session.go).

function describeError(e) {
  // QuickJS throws null when it cannot even allocate the "out of memory"
  // error; Go reports that as the memory limit.
  if (e === null) return { name: 'InternalError', message: 'out of memory', stack: '', thrownNull: true };
  if (e instanceof Error || (e && typeof e === 'object' && 'message' in e && 'name' in e)) {
    return { name: String(e.name || 'Error'), message: String(e.message), stack: e.stack ? String(e.stack) : '' };
  }
  return { name: '', message: 'Uncaught ' + inspect(e, 1), stack: '' };
}

async function settleAll(waits) {
  // waitUntil may be called while waiting, so the list can grow.
  for (let i = 0; i < waits.length; i++) await waits[i];
}

// scriptHandler returns the script's handler, or reports that it has none.
function scriptHandler() {
  const mod = globalThis.__folio_module;
  const handler = mod && mod.default !== undefined ? mod.default : mod;
  if (!handler || typeof handler.fetch !== 'function') {
    host('fail', 'invalid-script', '',
      'the script has no default export with a fetch function (export default { async fetch(request, env, ctx) {…} })', '');
    return null;
  }
  return handler;
}

function startHandler(headJSON, bin) {
  const head = JSON.parse(headJSON);
  const handler = scriptHandler();
  if (!handler) return;
  const hasBody = head.hasBody && head.method !== 'GET' && head.method !== 'HEAD';
  const request = new Request(head.url, {
    method: head.method,
    headers: head.headers,
    body: hasBody ? new BinaryBody(bin) : null,
  });
  const waits = [];
  const ctx = {
    waitUntil(promise) {
      waits.push(Promise.resolve(promise).catch((e) => {
        logLine('error', 'Uncaught (in a promise passed to waitUntil) ' + inspect(e, 0));
      }));
    },
    passThroughOnException() {},
    props: {},
  };
  let result;
  try {
    result = Promise.resolve(handler.fetch(request, {}, ctx));
  } catch (e) {
    result = Promise.reject(e);
  }
  result.then((response) => {
    if (!(response instanceof Response)) {
      throw new TypeError(`the fetch handler must return a Response, not ${inspect(response, 1)}`);
    }
    const i = response[INTERNAL];
    if (i.used) throw new TypeError('the fetch handler returned a Response whose body was already read');
    const bin = i.bin === null ? '' : i.bin;
    if (bin.length > config.maxResponse) {
      host('fail', 'response-too-large', '',
        `the response body is ${bin.length} bytes, over the limit of ${config.maxResponse}`, '');
      return undefined;
    }
    host('respond', i.status, i.statusText, JSON.stringify(headerList(i.headers)), bin);
    return settleAll(waits).then(() => host('done'));
  }).catch((e) => {
    const d = describeError(e);
    host('fail', 'exception', d.name, d.message, d.stack);
  });
}

Object.defineProperty(globalThis, '__folio_rt', {
  value: Object.freeze({
    configure(json) { Object.assign(config, JSON.parse(json)); },
    start: startHandler,
    check() { scriptHandler(); },
    fetchDone,
    nextTimer: nextTimerDelay,
    runTimers: runDueTimers,
  }),
  writable: false,
  configurable: false,
  enumerable: false,
});
