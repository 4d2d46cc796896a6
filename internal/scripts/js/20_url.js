// URLSearchParams (in JavaScript) and URL (parsed by Go's net/url with the
// WHATWG normalizations, see url.go).

function formEncode(s) {
  return encodeURIComponent(s)
    .replace(/%20/g, '+')
    .replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

// formDecode decodes application/x-www-form-urlencoded text leniently: a
// malformed escape stays as it is, invalid UTF-8 becomes U+FFFD.
function formDecode(s) {
  s = s.replace(/\+/g, ' ');
  if (!s.includes('%')) return s;
  let bin = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '%' && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      bin += String.fromCharCode(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bin += utf8Encode(c);
    }
  }
  return utf8Decode(bin, false, true);
}

function toUSVString(v) {
  return String(v).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

class URLSearchParams {
  constructor(init = '') {
    this[INTERNAL] = { list: [], url: null };
    const list = this[INTERNAL].list;
    if (init instanceof URLSearchParams) {
      for (const [k, v] of init[INTERNAL].list) list.push([k, v]);
    } else if (typeof init === 'object' && init !== null) {
      if (typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const p = Array.from(pair);
          if (p.length !== 2) throw new TypeError('URLSearchParams: each pair must have exactly two items');
          list.push([toUSVString(p[0]), toUSVString(p[1])]);
        }
      } else {
        for (const k of Object.keys(init)) list.push([toUSVString(k), toUSVString(init[k])]);
      }
    } else {
      let s = toUSVString(init);
      if (s.startsWith('?')) s = s.slice(1);
      parseQueryInto(list, s);
    }
  }
  get size() { return this[INTERNAL].list.length; }
  append(name, value) {
    this[INTERNAL].list.push([toUSVString(name), toUSVString(value)]);
    this.#update();
  }
  delete(name, value) {
    name = toUSVString(name);
    const i = this[INTERNAL];
    i.list = i.list.filter(([k, v]) => !(k === name && (value === undefined || v === toUSVString(value))));
    this.#update();
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
  has(name, value) {
    name = toUSVString(name);
    return this[INTERNAL].list.some(([k, v]) => k === name && (value === undefined || v === toUSVString(value)));
  }
  set(name, value) {
    name = toUSVString(name);
    value = toUSVString(value);
    const i = this[INTERNAL];
    const at = i.list.findIndex(([k]) => k === name);
    if (at < 0) {
      i.list.push([name, value]);
    } else {
      i.list[at][1] = value;
      i.list = i.list.filter(([k], j) => j <= at || k !== name);
    }
    this.#update();
  }
  sort() {
    // A stable sort by UTF-16 code units, as the standard asks.
    const list = this[INTERNAL].list;
    const sorted = list.map((e, i) => [e, i]).sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]));
    this[INTERNAL].list = sorted.map(([e]) => e);
    this.#update();
  }
  forEach(callback, thisArg) {
    for (const [k, v] of this[INTERNAL].list.slice()) callback.call(thisArg, v, k, this);
  }
  *entries() { for (const [k, v] of this[INTERNAL].list.slice()) yield [k, v]; }
  *keys() { for (const [k] of this[INTERNAL].list.slice()) yield k; }
  *values() { for (const [, v] of this[INTERNAL].list.slice()) yield v; }
  [Symbol.iterator]() { return this.entries(); }
  toString() {
    return this[INTERNAL].list.map(([k, v]) => formEncode(k) + '=' + formEncode(v)).join('&');
  }
  #update() {
    const url = this[INTERNAL].url;
    if (url) url[INTERNAL].setSearchFromParams(this.toString());
  }
}
defineClass(URLSearchParams);

function parseQueryInto(list, s) {
  list.length = 0;
  for (const part of s.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const k = eq < 0 ? part : part.slice(0, eq);
    const v = eq < 0 ? '' : part.slice(eq + 1);
    list.push([formDecode(k), formDecode(v)]);
  }
}

function parseURLParts(url, base) {
  const hasBase = base !== undefined;
  const json = callHost('parseURL', toUSVString(url), hasBase ? toUSVString(base) : '', hasBase);
  return JSON.parse(json);
}

const SPECIAL_SCHEMES = ['http:', 'https:', 'ws:', 'wss:', 'ftp:', 'file:'];

class URL {
  constructor(url, base) {
    if (arguments.length === 0) throw new TypeError('URL: 1 argument required');
    if (base !== undefined) base = String(base instanceof URL ? base.href : base);
    let parts;
    try {
      parts = parseURLParts(url instanceof URL ? url.href : String(url), base);
    } catch (e) {
      throw new TypeError(`Invalid URL: ${String(url)}`);
    }
    const self = this;
    this[INTERNAL] = {
      parts,
      params: null,
      setSearchFromParams(query) {
        const i = self[INTERNAL];
        i.parts = Object.assign({}, i.parts, { search: query === '' ? '' : '?' + query });
        self.#reparse();
      },
    };
  }
  static canParse(url, base) {
    try {
      new URL(url, base);
      return true;
    } catch (e) {
      return false;
    }
  }
  static parse(url, base) {
    try {
      return new URL(url, base);
    } catch (e) {
      return null;
    }
  }
  // Setters rebuild the href and parse it again in Go, so the normalizations
  // live in one place; an invalid value leaves the URL as it was.
  #reparse() {
    const i = this[INTERNAL];
    const p = i.parts;
    let href = p.protocol;
    if (!p.opaque) {
      href += '//';
      if (p.username || p.password) href += p.username + (p.password ? ':' + p.password : '') + '@';
      href += p.hostname + (p.port ? ':' + p.port : '');
    }
    href += p.pathname + p.search + p.hash;
    i.parts = parseURLParts(href);
    if (i.params) parseQueryInto(i.params[INTERNAL].list, i.parts.search.slice(1));
  }
  #set(field, value) {
    const i = this[INTERNAL];
    const old = i.parts;
    i.parts = Object.assign({}, old, { [field]: value });
    try {
      this.#reparse();
    } catch (e) {
      i.parts = old; // an invalid value leaves the URL as it was, as setters do
    }
  }
  get href() { return this[INTERNAL].parts.href; }
  set href(v) {
    const i = this[INTERNAL];
    try {
      i.parts = parseURLParts(String(v));
    } catch (e) {
      throw new TypeError(`Invalid URL: ${String(v)}`);
    }
    if (i.params) parseQueryInto(i.params[INTERNAL].list, i.parts.search.slice(1));
  }
  get origin() {
    const p = this[INTERNAL].parts;
    if (!SPECIAL_SCHEMES.includes(p.protocol) || p.protocol === 'file:') return 'null';
    return p.protocol + '//' + this.host;
  }
  get protocol() { return this[INTERNAL].parts.protocol; }
  set protocol(v) {
    v = String(v).replace(/:.*$/, '').toLowerCase();
    if (/^[a-z][a-z0-9+.-]*$/.test(v)) this.#set('protocol', v + ':');
  }
  get username() { return this[INTERNAL].parts.username; }
  set username(v) { this.#set('username', encodeURIComponent(String(v))); }
  get password() { return this[INTERNAL].parts.password; }
  set password(v) { this.#set('password', encodeURIComponent(String(v))); }
  get host() {
    const p = this[INTERNAL].parts;
    return p.hostname + (p.port ? ':' + p.port : '');
  }
  set host(v) {
    const m = /^([^:/?#]*|\[[^\]]*\])(?::(\d*))?/.exec(String(v));
    if (!m || m[1] === '') return;
    const i = this[INTERNAL];
    const old = i.parts;
    i.parts = Object.assign({}, old, { hostname: m[1], port: m[2] !== undefined ? m[2] : old.port });
    try {
      this.#reparse();
    } catch (e) {
      i.parts = old;
    }
  }
  get hostname() { return this[INTERNAL].parts.hostname; }
  set hostname(v) {
    v = String(v);
    if (v !== '' && !/[:/?#]/.test(v.replace(/^\[.*\]$/, ''))) this.#set('hostname', v);
  }
  get port() { return this[INTERNAL].parts.port; }
  set port(v) {
    v = String(v);
    const m = /^\d*/.exec(v)[0];
    if (v === '' || m !== '') this.#set('port', m);
  }
  get pathname() { return this[INTERNAL].parts.pathname; }
  set pathname(v) {
    if (this[INTERNAL].parts.opaque) return;
    v = String(v);
    if (!v.startsWith('/')) v = '/' + v;
    this.#set('pathname', v.replace(/[?#]/g, (c) => encodeURIComponent(c)));
  }
  get search() {
    const s = this[INTERNAL].parts.search;
    return s === '?' ? '' : s;
  }
  set search(v) {
    v = String(v);
    if (v.startsWith('?')) v = v.slice(1);
    this.#set('search', v === '' ? '' : '?' + v.replace(/#/g, '%23'));
  }
  get searchParams() {
    const i = this[INTERNAL];
    if (!i.params) {
      i.params = new URLSearchParams(i.parts.search);
      i.params[INTERNAL].url = this;
    }
    return i.params;
  }
  get hash() {
    const h = this[INTERNAL].parts.hash;
    return h === '#' ? '' : h;
  }
  set hash(v) {
    v = String(v);
    if (v.startsWith('#')) v = v.slice(1);
    this.#set('hash', v === '' ? '' : '#' + v);
  }
  toString() { return this.href; }
  toJSON() { return this.href; }
}
defineClass(URL);
