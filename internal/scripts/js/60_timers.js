// Timers, driven by Go's event loop: it asks __folio_rt.nextTimer() how long
// to sleep and calls __folio_rt.runTimers() when that time has come.

const timers = new Map();
let timerSeq = 0;
const MAX_TIMERS = 10000;

function addTimer(callback, delay, args, repeat) {
  if (typeof callback !== 'function') {
    throw new TypeError('timers: the callback must be a function (code strings are not supported)');
  }
  if (timers.size >= MAX_TIMERS) throw new RangeError(`timers: more than ${MAX_TIMERS} timers are pending`);
  delay = Number(delay);
  if (!(delay > 0)) delay = 0;
  if (repeat && delay < 1) delay = 1;
  const id = ++timerSeq;
  timers.set(id, { callback, args, delay, at: Date.now() + delay, repeat });
  return id;
}

define('setTimeout', function setTimeout(callback, delay, ...args) {
  return addTimer(callback, delay, args, false);
});
define('setInterval', function setInterval(callback, delay, ...args) {
  return addTimer(callback, delay, args, true);
});
define('clearTimeout', function clearTimeout(id) { timers.delete(Number(id)); });
define('clearInterval', function clearInterval(id) { timers.delete(Number(id)); });

define('queueMicrotask', function queueMicrotask(callback) {
  if (typeof callback !== 'function') throw new TypeError('queueMicrotask: the callback must be a function');
  Promise.resolve().then(() => {
    try {
      callback();
    } catch (e) {
      reportError(e);
    }
  });
});

// nextTimerDelay returns the milliseconds until the next timer, or -1.
function nextTimerDelay() {
  if (timers.size === 0) return -1;
  let at = Infinity;
  for (const t of timers.values()) if (t.at < at) at = t.at;
  return Math.max(0, at - Date.now());
}

// runDueTimers runs the timers that are due, in order of due time, then of
// creation.
function runDueTimers() {
  const now = Date.now();
  const due = [];
  for (const [id, t] of timers) if (t.at <= now) due.push([id, t]);
  due.sort((a, b) => a[1].at - b[1].at || a[0] - b[0]);
  for (const [id, t] of due) {
    if (timers.get(id) !== t) continue; // cleared by an earlier callback
    if (t.repeat) t.at = now + t.delay;
    else timers.delete(id);
    try {
      t.callback(...t.args);
    } catch (e) {
      reportError(e);
    }
  }
}
