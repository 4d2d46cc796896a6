// fetch, through Go's HTTP client (see fetch.go).

// Each fetch gets an id. Go starts the request at once and answers on a later
// turn of its event loop through __folio_rt.fetchDone(id, …); an abort tells
// Go to cancel the request and rejects here without waiting for it.
const pendingFetches = new Map();
let fetchSeq = 0;

define('fetch', function fetch(input, init) {
  return new Promise((resolve, reject) => {
    const req = new Request(input, init);
    const signal = req.signal;
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const bin = req[INTERNAL].bin;
    if (bin !== null) req[INTERNAL].used = true;
    const id = ++fetchSeq;
    callHost('fetch', id, req.method, req.url, JSON.stringify(headerList(req.headers)), bin, req.redirect);
    const onAbort = () => {
      if (!pendingFetches.has(id)) return;
      pendingFetches.delete(id);
      callHost('fetchAbort', id);
      reject(signal.reason);
    };
    pendingFetches.set(id, { resolve, reject, signal, onAbort });
    signal.addEventListener('abort', onAbort);
  });
});

function fetchDone(id, err, status, statusText, headersJSON, bin, url, redirected) {
  const p = pendingFetches.get(id);
  if (!p) return;
  pendingFetches.delete(id);
  p.signal.removeEventListener('abort', p.onAbort);
  if (err) {
    p.reject(new TypeError(err));
    return;
  }
  p.resolve(makeResponse(status, statusText, JSON.parse(headersJSON), bin, url, redirected));
}
