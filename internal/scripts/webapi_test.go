package scripts

import (
	"strings"
	"testing"
)

// webAPICases run the body of an async function inside a handler and compare
// what it returns, as JSON. Every expectation was checked against Node's own
// implementation of the same API (see docs/scripts.md for the differences).
var webAPICases = []struct {
	name string
	body string
	want string
}{
	// Headers
	{"Headers/case-insensitive and combined", `
		const h = new Headers({'Content-Type': 'text/plain', 'X-A': '1'});
		h.append('x-a', '2');
		return [h.get('content-type'), h.get('X-A'), h.has('CONTENT-TYPE'), [...h]];`,
		`["text/plain", "1, 2", true, [["content-type", "text/plain"], ["x-a", "1, 2"]]]`},
	{"Headers/set-cookie kept apart", `
		const h = new Headers();
		h.append('Set-Cookie', 'a=1'); h.append('set-cookie', 'b=2'); h.set('B', 'x'); h.delete('b');
		return [h.getSetCookie(), [...h.keys()], h.get('set-cookie')];`,
		`[["a=1", "b=2"], ["set-cookie", "set-cookie"], "a=1, b=2"]`},
	{"Headers/invalid name is a TypeError", `
		try { new Headers({'bad name': 'x'}); return 'no'; } catch (e) { return e instanceof TypeError; }`,
		`true`},
	{"Headers/pairs sorted in forEach", `
		const h = new Headers([['b', '2'], ['a', ' 1 ']]);
		const out = []; h.forEach((v, k) => out.push(k + '=' + v)); return out;`,
		`["a=1", "b=2"]`},

	// URL and URLSearchParams
	{"URL/parts normalized", `
		const u = new URL('HTTPS://User:Pw@Example.COM:443/a/../b/c?x=1&y=%20#frag');
		return [u.href, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin];`,
		`["https://User:Pw@example.com/b/c?x=1&y=%20#frag", "https:", "User", "Pw", "example.com", "example.com", "", "/b/c", "?x=1&y=%20", "#frag", "https://example.com"]`},
	{"URL/relative to a base", `
		return [new URL('../d?q', 'https://a.example/b/c/').href, new URL('//other.example/x', 'https://a.example/').href,
			new URL('/p', new URL('https://a.example/b')).href];`,
		`["https://a.example/b/d?q", "https://other.example/x", "https://a.example/p"]`},
	{"URL/searchParams are live", `
		const u = new URL('https://a.example/?a=1');
		u.searchParams.append('b', 'x y'); u.searchParams.set('a', '2');
		const before = u.href; u.search = '?c=3';
		return [before, [...u.searchParams], u.searchParams.get('c')];`,
		`["https://a.example/?a=2&b=x+y", [["c", "3"]], "3"]`},
	{"URL/setters", `
		const u = new URL('https://a.example/p');
		u.pathname = '/q r'; u.hash = 'h'; u.search = 's=1'; u.port = '8443'; u.hostname = 'b.example';
		return u.href;`,
		`"https://b.example:8443/q%20r?s=1#h"`},
	{"URL/invalid is a TypeError", `
		const out = [];
		for (const s of ['nope', '/rel', 'http://']) { try { new URL(s); out.push('ok'); } catch (e) { out.push(e.name); } }
		return [out, URL.canParse('https://x'), URL.canParse('x')];`,
		`[["TypeError", "TypeError", "TypeError"], true, false]`},
	{"URL/IDN, IPv6, opaque and default port", `
		return [new URL('https://bücher.example/ä').href, new URL('http://[::1]:8080/').host,
			new URL('mailto:a@b.example').pathname, new URL('http://x.example:80/').port, String(new URL('https://x.example'))];`,
		`["https://xn--bcher-kva.example/%C3%A4", "[::1]:8080", "a@b.example", "", "https://x.example/"]`},
	{"URLSearchParams/parse, sort and serialize", `
		const p = new URLSearchParams('?a=1&b=x+y&c=%E2%9C%93&a=2');
		p.sort();
		return [p.getAll('a'), p.get('b'), p.get('c'), p.toString(),
			new URLSearchParams({q: 'a&b=c', e: "!'()~*"}).toString(), p.has('a', '2'), p.size];`,
		`[["1", "2"], "x y", "✓", "a=1&a=2&b=x+y&c=%E2%9C%93", "q=a%26b%3Dc&e=%21%27%28%29%7E*", true, 4]`},

	// Encoding
	{"TextEncoder and TextDecoder/UTF-8", `
		const e = new TextEncoder().encode('héllo €😀');
		return [Array.from(e), new TextDecoder().decode(e),
			new TextDecoder().decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41, 0xFF, 0x42]))];`,
		`[[104, 195, 169, 108, 108, 111, 32, 226, 130, 172, 240, 159, 152, 128], "héllo €😀", "A\ufffdB"]`},
	{"TextDecoder/fatal", `
		try { new TextDecoder('utf-8', {fatal: true}).decode(new Uint8Array([0xFF])); return 'no'; } catch (e) { return e.name; }`,
		`"TypeError"`},
	{"TextDecoder/streaming keeps split characters", `
		const bytes = new TextEncoder().encode('\ufeffé€😀!');
		const d = new TextDecoder();
		let out = '';
		for (let i = 0; i < bytes.length; i++) out += d.decode(bytes.subarray(i, i + 1), {stream: true});
		out += d.decode();
		const bad = [[0xE2, 0x82], [0xE2, 0x82, 0x41], [0xF0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90]];
		return [out, bad.map((b) => new TextDecoder().decode(new Uint8Array(b)))];`,
		`["é€😀!", ["\ufffd", "\ufffdA", "\ufffd\ufffd\ufffd", "\ufffd\ufffd\ufffd", "\ufffd\ufffd", "\ufffd\ufffd"]]`},
	{"TextEncoder/encodeInto stops at a whole character", `
		return new TextEncoder().encodeInto('a€b', new Uint8Array(4));`,
		`{"read": 2, "written": 4}`},
	{"atob and btoa", `
		return [btoa('hello\u00ff'), atob('aGVsbG8g d29y bGQ='), atob('YQ')];`,
		`["aGVsbG//", "hello world", "a"]`},
	{"atob and btoa/errors", `
		const out = [];
		try { btoa('€'); } catch (e) { out.push(e.name); }
		try { atob('a'); } catch (e) { out.push(e.name); }
		return out;`,
		`["InvalidCharacterError", "InvalidCharacterError"]`},

	// Blob, File and FormData
	{"Blob and File", `
		const b = new Blob(['ab', new Uint8Array([99]), new Blob(['dé'])], {type: 'Text/Plain'});
		const f = new File(['x'], 'f.txt', {type: 'text/plain', lastModified: 5});
		return [b.size, b.type, await b.text(), await b.slice(1, 3).text(), Array.from(new Uint8Array(await b.slice(-2).arrayBuffer())),
			f.name, f.size, f.lastModified, f instanceof Blob];`,
		`[6, "text/plain", "abcdé", "bc", [195, 169], "f.txt", 1, 5, true]`},
	{"FormData/entries", `
		const fd = new FormData();
		fd.append('a', '1'); fd.append('a', '2');
		fd.append('f', new Blob(['data'], {type: 'text/plain'}), 'x.txt');
		fd.set('b', 'z');
		const f = fd.get('f');
		return [fd.getAll('a'), fd.get('b'), fd.has('c'), f.name, f.type, await f.text(), [...fd.keys()]];`,
		`[["1", "2"], "z", false, "x.txt", "text/plain", "data", ["a", "a", "f", "b"]]`},
	{"FormData/multipart round trip", `
		const fd = new FormData();
		fd.append('name', 'héllo "q"');
		fd.append('file', new File([new Uint8Array([0, 255, 10])], 'b.bin', {type: 'application/octet-stream'}));
		const r = new Response(fd);
		const back = await r.formData();
		const file = back.get('file');
		return [r.headers.get('content-type').startsWith('multipart/form-data; boundary='), back.get('name'),
			file.name, file.type, Array.from(new Uint8Array(await file.arrayBuffer()))];`,
		`[true, "héllo \"q\"", "b.bin", "application/octet-stream", [0, 255, 10]]`},
	{"FormData/urlencoded body", `
		const r = new Request('https://x.example/', {method: 'POST', body: new URLSearchParams({a: '1 2', b: 'é'})});
		const fd = await r.formData();
		return [r.headers.get('content-type'), fd.get('a'), fd.get('b')];`,
		`["application/x-www-form-urlencoded;charset=UTF-8", "1 2", "é"]`},

	// Request and Response
	{"Response/basics and clone", `
		const r = new Response('{"a":1}', {status: 201, statusText: 'Created', headers: {'X-Y': 'z'}});
		const c = r.clone();
		return [r.status, r.statusText, r.ok, r.headers.get('x-y'), r.headers.get('content-type'), await r.json(), r.bodyUsed, await c.text()];`,
		`[201, "Created", true, "z", "text/plain;charset=UTF-8", {"a": 1}, true, "{\"a\":1}"]`},
	{"Response/body read twice is a TypeError", `
		const r = new Response('x'); await r.text();
		try { await r.text(); return 'no'; } catch (e) { return e.name; }`,
		`"TypeError"`},
	{"Response/json, redirect and error", `
		const j = Response.json({a: [1]}, {status: 202});
		const rd = Response.redirect('https://x.example/to', 301);
		const e = Response.error();
		return [j.status, j.headers.get('content-type'), await j.text(), rd.status, rd.headers.get('location'), e.status, e.type];`,
		`[202, "application/json", "{\"a\":[1]}", 301, "https://x.example/to", 0, "error"]`},
	{"Response/status range", `
		const out = [];
		for (const s of [199, 600, 204]) {
			try { new Response(s === 204 ? 'x' : null, {status: s}); out.push('ok'); } catch (e) { out.push(e.name); }
		}
		return out;`,
		`["RangeError", "RangeError", "TypeError"]`},
	{"Response/arrayBuffer", `
		const r = new Response(new Uint8Array([1, 2, 3]).buffer);
		const b = await r.arrayBuffer();
		return [b instanceof ArrayBuffer, Array.from(new Uint8Array(b)), r.headers.get('content-type')];`,
		`[true, [1, 2, 3], null]`},
	{"Response/body reader", `
		const r = new Response('abc');
		const reader = r.body.getReader();
		const chunks = [];
		for (;;) { const {done, value} = await reader.read(); if (done) break; chunks.push(...value); }
		return [chunks, r.bodyUsed, new Response(null).body];`,
		`[[97, 98, 99], true, null]`},
	{"Request/from a Request", `
		const r = new Request('https://x.example/a?b', {method: 'post', headers: {a: '1'}, body: JSON.stringify({k: 'v'})});
		const r2 = new Request(r, {headers: {b: '2'}});
		return [r.method, r.url, [...r2.headers], await r2.json(), r.bodyUsed, r2.redirect, r2.method];`,
		`["POST", "https://x.example/a?b", [["b", "2"]], {"k": "v"}, true, "follow", "POST"]`},
	{"Request/GET with a body is a TypeError", `
		try { new Request('https://x.example/', {body: 'x'}); return 'no'; } catch (e) { return e.name; }`,
		`"TypeError"`},
	{"Request/relative URL is a TypeError", `
		try { new Request('/x'); return 'no'; } catch (e) { return e.name; }`,
		`"TypeError"`},

	// crypto
	{"crypto/random values and UUIDs", `
		const a = crypto.getRandomValues(new Uint8Array(32));
		const u = crypto.randomUUID();
		return [a.length, a.some((x) => x !== 0),
			/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u), crypto.randomUUID() !== u];`,
		`[32, true, true, true]`},
	{"crypto.subtle/HMAC SHA-256 sign and verify (RFC 4231 case 2)", `
		const enc = new TextEncoder();
		const key = await crypto.subtle.importKey('raw', enc.encode('Jefe'), {name: 'HMAC', hash: 'SHA-256'}, false, ['sign', 'verify']);
		const sig = await crypto.subtle.sign('HMAC', key, enc.encode('what do ya want for nothing?'));
		const hex = [...new Uint8Array(sig)].map((b) => b.toString(16).padStart(2, '0')).join('');
		const ok = await crypto.subtle.verify('HMAC', key, sig, enc.encode('what do ya want for nothing?'));
		const bad = await crypto.subtle.verify({name: 'HMAC'}, key, sig, enc.encode('other'));
		return [hex, ok, bad, key.algorithm.name, key.algorithm.hash.name, key.type, key.usages];`,
		`["5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", true, false, "HMAC", "SHA-256", "secret", ["sign", "verify"]]`},
	{"crypto.subtle/digest SHA-256", `
		const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode('abc'));
		return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('');`,
		`"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`},
	{"crypto.subtle/JWK import and export", `
		const key = await crypto.subtle.importKey('jwk', {kty: 'oct', k: 'SmVmZQ'}, {name: 'HMAC', hash: {name: 'SHA-256'}}, true, ['sign']);
		const raw = await crypto.subtle.exportKey('raw', key);
		return [Array.from(new Uint8Array(raw)), (await crypto.subtle.exportKey('jwk', key)).k];`,
		`[[74, 101, 102, 101], "SmVmZQ"]`},
	{"crypto.subtle/other algorithms are NotSupportedError", `
		try { await crypto.subtle.importKey('raw', new Uint8Array(16), {name: 'AES-GCM'}, false, ['encrypt']); return 'no'; }
		catch (e) { return e.name; }`,
		`"NotSupportedError"`},

	// Timers and microtasks
	{"timers/order", `
		const out = [];
		setTimeout(() => out.push('t20'), 20);
		setTimeout(() => out.push('t0'), 0);
		const c = setTimeout(() => out.push('cleared'), 5); clearTimeout(c);
		queueMicrotask(() => out.push('micro'));
		Promise.resolve().then(() => out.push('promise'));
		out.push('sync');
		await new Promise((r) => setTimeout(r, 40));
		return out;`,
		`["sync", "micro", "promise", "t0", "t20"]`},
	{"timers/setInterval until cleared", `
		let n = 0;
		await new Promise((resolve) => { const id = setInterval(() => { if (++n === 3) { clearInterval(id); resolve(); } }, 1); });
		return n;`,
		`3`},
	{"timers/arguments and delay", `
		const t0 = Date.now();
		const v = await new Promise((r) => setTimeout(r, 30, 'arg'));
		return [v, Date.now() - t0 >= 29];`,
		`["arg", true]`},

	// Abort
	{"AbortController/abort once, listeners then onabort", `
		const c = new AbortController();
		const seen = [];
		c.signal.addEventListener('abort', () => seen.push('listener'));
		c.signal.onabort = () => seen.push('onabort');
		c.abort('why'); c.abort('again');
		let thrown;
		try { c.signal.throwIfAborted(); } catch (e) { thrown = e; }
		return [c.signal.aborted, c.signal.reason, seen, thrown];`,
		`[true, "why", ["listener", "onabort"], "why"]`},
	{"AbortSignal/timeout and abort", `
		const s = AbortSignal.timeout(10);
		await new Promise((r) => setTimeout(r, 30));
		const a = AbortSignal.abort();
		return [s.aborted, s.reason.name, a.aborted, a.reason.name, a.reason instanceof DOMException];`,
		`[true, "TimeoutError", true, "AbortError", true]`},

	// structuredClone and globals
	{"structuredClone/deep with cycles", `
		const o = {d: new Date(0), m: new Map([[1, {x: 1}]]), s: new Set(['a']), a: [1, 2], u: new Uint8Array([1, 2])};
		o.self = o;
		const c = structuredClone(o);
		return [c !== o, c.self === c, c.d.toISOString(), c.m.get(1).x, c.m.get(1) !== o.m.get(1), [...c.s], c.a, Array.from(c.u)];`,
		`[true, true, "1970-01-01T00:00:00.000Z", 1, true, ["a"], [1, 2], [1, 2]]`},
	{"structuredClone/functions are DataCloneError", `
		try { structuredClone({f() {}}); return 'no'; } catch (e) { return [e.name, e instanceof DOMException]; }`,
		`["DataCloneError", true]`},
	{"Intl/en-US in UTC", `
		return [new Intl.DateTimeFormat('en-US', {dateStyle: 'medium', timeZone: 'UTC'}).format(new Date(0)),
			(1234.5).toLocaleString('en-US'), new Intl.NumberFormat('en-US', {style: 'currency', currency: 'EUR'}).format(3),
			new Date(0).toLocaleString('en-US', {timeZone: 'UTC'})];`,
		`["Jan 1, 1970", "1,234.5", "€3.00", "1/1/1970, 12:00:00 AM"]`},
	{"globals", `
		return [typeof self, self === globalThis, typeof navigator.userAgent, typeof performance.now(), typeof EventTarget,
			typeof DOMException, typeof Event];`,
		`["object", true, "string", "number", "function", "function", "function"]`},
}

func TestWebAPIs(t *testing.T) {
	r := NewRunner(nil, testLimits())
	for _, tc := range webAPICases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			res := mustRun(t, r, evalScript(tc.body))
			wantJSON(t, res, tc.want)
		})
	}
}
