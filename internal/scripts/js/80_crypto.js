// crypto.getRandomValues, crypto.randomUUID and crypto.subtle for HMAC and
// SHA digests (SHA-1, SHA-256, SHA-384, SHA-512).

const HASHES = ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'];
const HASH_BLOCK_BITS = { 'SHA-1': 512, 'SHA-256': 512, 'SHA-384': 1024, 'SHA-512': 1024 };

function normalizeHash(hash) {
  const name = String(typeof hash === 'object' && hash !== null ? hash.name : hash).toUpperCase();
  if (!HASHES.includes(name)) throw new DOMException(`Unrecognized hash algorithm: ${name}`, 'NotSupportedError');
  return name;
}

function normalizeAlgorithm(alg) {
  const name = String(typeof alg === 'object' && alg !== null ? alg.name : alg);
  return { name: name.toUpperCase(), params: typeof alg === 'object' && alg !== null ? alg : {} };
}

// A key keeps its bytes as a binary string in [INTERNAL]; the HMAC itself is
// computed in Go (crypto/hmac), never in JavaScript.
class CryptoKey {
  constructor() { throw new TypeError('Illegal constructor'); }
  get type() { return this[INTERNAL].type; }
  get extractable() { return this[INTERNAL].extractable; }
  get algorithm() { return this[INTERNAL].algorithm; }
  get usages() { return this[INTERNAL].usages.slice(); }
}
defineClass(CryptoKey);

function newHMACKey(bin, hash, extractable, usages) {
  for (const u of usages) {
    if (u !== 'sign' && u !== 'verify') throw new DOMException(`Unsupported key usage for HMAC: ${u}`, 'SyntaxError');
  }
  const key = Object.create(CryptoKey.prototype);
  key[INTERNAL] = {
    type: 'secret', extractable: !!extractable, usages: Array.from(usages),
    algorithm: { name: 'HMAC', hash: { name: hash }, length: bin.length * 8 }, bin,
  };
  return key;
}

function base64urlToBinary(s) {
  return callHost('atob', String(s).replace(/-/g, '+').replace(/_/g, '/'));
}

function binaryToBase64url(bin) {
  return callHost('btoa', bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function checkKey(key, alg, usage) {
  if (!(key instanceof CryptoKey)) throw new TypeError('the key is not a CryptoKey');
  if (alg !== 'HMAC' || key.algorithm.name !== 'HMAC') {
    throw new DOMException(`Unsupported algorithm: ${alg} (Folio supports HMAC)`, 'NotSupportedError');
  }
  if (!key[INTERNAL].usages.includes(usage)) throw new DOMException(`The key does not allow ${usage}`, 'InvalidAccessError');
}

const subtle = {
  async digest(algorithm, data) {
    const hash = normalizeHash(algorithm);
    return binaryToArrayBuffer(callHost('digest', hash, bufferToBinary(data)));
  },
  async importKey(format, keyData, algorithm, extractable, usages) {
    const alg = normalizeAlgorithm(algorithm);
    if (alg.name !== 'HMAC') {
      throw new DOMException(`Unsupported algorithm: ${alg.name} (Folio supports HMAC)`, 'NotSupportedError');
    }
    const hash = normalizeHash(alg.params.hash);
    let bin;
    if (format === 'raw') {
      bin = bufferToBinary(keyData);
    } else if (format === 'jwk') {
      if (!keyData || keyData.kty !== 'oct' || typeof keyData.k !== 'string') {
        throw new DOMException('Invalid JWK for an HMAC key', 'DataError');
      }
      bin = base64urlToBinary(keyData.k);
    } else {
      throw new DOMException(`Unsupported key format: ${format}`, 'NotSupportedError');
    }
    if (bin.length === 0) throw new DOMException('The key is empty', 'DataError');
    if (alg.params.length !== undefined) bin = bin.slice(0, Math.ceil(alg.params.length / 8));
    return newHMACKey(bin, hash, extractable, usages || []);
  },
  async exportKey(format, key) {
    if (!(key instanceof CryptoKey)) throw new TypeError('the key is not a CryptoKey');
    if (!key.extractable) throw new DOMException('The key is not extractable', 'InvalidAccessError');
    const bin = key[INTERNAL].bin;
    if (format === 'raw') return binaryToArrayBuffer(bin);
    if (format === 'jwk') {
      const hash = key.algorithm.hash.name;
      return { kty: 'oct', k: binaryToBase64url(bin), alg: 'HS' + hash.slice(4), ext: true, key_ops: key.usages };
    }
    throw new DOMException(`Unsupported key format: ${format}`, 'NotSupportedError');
  },
  async generateKey(algorithm, extractable, usages) {
    const alg = normalizeAlgorithm(algorithm);
    if (alg.name !== 'HMAC') {
      throw new DOMException(`Unsupported algorithm: ${alg.name} (Folio supports HMAC)`, 'NotSupportedError');
    }
    const hash = normalizeHash(alg.params.hash);
    const bits = alg.params.length !== undefined ? Number(alg.params.length) : HASH_BLOCK_BITS[hash];
    return newHMACKey(randomBinary(Math.ceil(bits / 8)), hash, extractable, usages || []);
  },
  async sign(algorithm, key, data) {
    const alg = normalizeAlgorithm(algorithm).name;
    checkKey(key, alg, 'sign');
    return binaryToArrayBuffer(callHost('hmac', key.algorithm.hash.name, key[INTERNAL].bin, bufferToBinary(data)));
  },
  async verify(algorithm, key, signature, data) {
    const alg = normalizeAlgorithm(algorithm).name;
    checkKey(key, alg, 'verify');
    return callHost('hmacVerify', key.algorithm.hash.name, key[INTERNAL].bin, bufferToBinary(data), bufferToBinary(signature));
  },
};

const INTEGER_ARRAYS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  BigInt64Array, BigUint64Array];

const cryptoObject = {
  subtle,
  getRandomValues(array) {
    if (!INTEGER_ARRAYS.some((T) => array instanceof T)) {
      throw new DOMException('getRandomValues: the array must be an integer typed array', 'TypeMismatchError');
    }
    if (array.byteLength > 65536) {
      throw new DOMException(`getRandomValues: ${array.byteLength} bytes asked, the limit is 65536`, 'QuotaExceededError');
    }
    const bytes = viewBytes(array);
    const bin = randomBinary(bytes.length);
    for (let i = 0; i < bytes.length; i++) bytes[i] = bin.charCodeAt(i);
    return array;
  },
  randomUUID() { return callHost('uuid'); },
};
define('crypto', cryptoObject);
