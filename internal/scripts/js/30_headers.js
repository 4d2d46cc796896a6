// Headers: names are case-insensitive and iterate lower-cased and sorted,
// values of one name joined with ", " (Set-Cookie values kept apart).

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function headerName(name) {
  name = String(name);
  if (!TOKEN.test(name)) throw new TypeError(`Invalid header name: "${name}"`);
  return name.toLowerCase();
}

function headerValue(value) {
  value = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (/[\0\r\n]/.test(value)) throw new TypeError('Invalid header value');
  return value;
}

class Headers {
  constructor(init) {
    this[INTERNAL] = { map: new Map() };
    if (init === undefined || init === null) return;
    if (init instanceof Headers) {
      for (const [k, list] of init[INTERNAL].map) this[INTERNAL].map.set(k, list.slice());
    } else if (typeof init === 'object' && typeof init[Symbol.iterator] === 'function') {
      for (const pair of init) {
        const p = Array.from(pair);
        if (p.length !== 2) throw new TypeError('Headers: each header must be a [name, value] pair');
        this.append(p[0], p[1]);
      }
    } else if (typeof init === 'object') {
      for (const k of Object.keys(init)) this.append(k, init[k]);
    } else {
      throw new TypeError('Headers: init must be an object, an iterable of pairs or a Headers');
    }
  }
  append(name, value) {
    name = headerName(name);
    value = headerValue(value);
    const map = this[INTERNAL].map;
    if (map.has(name)) map.get(name).push(value);
    else map.set(name, [value]);
  }
  delete(name) { this[INTERNAL].map.delete(headerName(name)); }
  get(name) {
    const list = this[INTERNAL].map.get(headerName(name));
    return list ? list.join(', ') : null;
  }
  getSetCookie() {
    const list = this[INTERNAL].map.get('set-cookie');
    return list ? list.slice() : [];
  }
  getAll(name) {
    // Cloudflare's extension, for Set-Cookie.
    return (this[INTERNAL].map.get(headerName(name)) || []).slice();
  }
  has(name) { return this[INTERNAL].map.has(headerName(name)); }
  set(name, value) { this[INTERNAL].map.set(headerName(name), [headerValue(value)]); }
  forEach(callback, thisArg) {
    for (const [k, v] of this) callback.call(thisArg, v, k, this);
  }
  *entries() {
    const map = this[INTERNAL].map;
    for (const k of Array.from(map.keys()).sort()) {
      const list = map.get(k);
      if (!list) continue;
      if (k === 'set-cookie') for (const v of list) yield [k, v];
      else yield [k, list.join(', ')];
    }
  }
  *keys() { for (const [k] of this.entries()) yield k; }
  *values() { for (const [, v] of this.entries()) yield v; }
  [Symbol.iterator]() { return this.entries(); }
}
defineClass(Headers);

// headerList returns every [name, value] pair of h, one per value, for Go.
function headerList(h) {
  const out = [];
  for (const [k, list] of h[INTERNAL].map) for (const v of list) out.push([k, v]);
  return out;
}
