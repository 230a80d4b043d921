#!/usr/bin/env python3
"""Checks certificates of periods of octal games (docs/certificates.md) in plain Python, with no
import of nimbers: a referee's second opinion on every proof in results/.

    python tools/check_certificate.py CERT [--values FILE] [--regenerate N]

CERT is one certificate (JSON) or a file of them (JSON lines).  The values g(0 .. bound-1) come
from FILE (little-endian unsigned 32-bit integers from heap 0, as any solver can write them;
the file may hold more) or, for a bound of at most N (default 4096), from the mex recursion
below.  Each certificate must satisfy: the bound of the octal periodicity theorem of Guy and
Smith (Winning Ways ch. 4), 2 max(n0, 1) + 2p + t with t the largest k whose digit is not 0;
the SHA-256 of the values; g(n + p) = g(n) for n0 <= n < bound - p; g(n0 - 1 + p) != g(n0 - 1)
(the least pre-period); no p / q (q a prime factor of p) repeating from n0 (the least period).
Exit status 0 when all hold, 1 naming the first that fails, 2 for unreadable input, 3 when
those checked hold but some were past N with no values file (each named "NOT CHECKED").
"""
import argparse
import hashlib
import json
import sys

CHUNK = 1 << 20  # values compared or hashed at a time: memory stays bounded


def regenerate(digits, n):
    """g(0 .. n-1) by the mex of the options (digit dk: 1 takes a heap of exactly k, 2 leaves
    one heap, 4 leaves two non-empty heaps), as little-endian 32-bit bytes."""
    g = []
    for m in range(n):
        seen = set()
        for k, d in enumerate(digits):
            if d & 1 and m == k >= 1:
                seen.add(0)
            if d & 2 and m > k >= 1:
                seen.add(g[m - k])
            if d & 4 and m - k >= 2:
                seen.update(g[a] ^ g[m - k - a] for a in range(1, (m - k) // 2 + 1))
        v = 0
        while v in seen:
            v += 1
        g.append(v)
    return b"".join(v.to_bytes(4, "little") for v in g)


class Values:
    """g(a .. b-1) as bytes, from a file or from memory."""

    def __init__(self, path=None, data=None):
        self.file, self.data = (open(path, "rb") if path else None), data

    def read(self, a, b):
        if self.file is None:
            return self.data[4 * a:4 * b]
        self.file.seek(4 * a)
        got = self.file.read(4 * (b - a))
        if len(got) != 4 * (b - a):
            raise ValueError(f"the values file ends before heap size {b - 1}")
        return got

    def same(self, a, b, length):
        """Whether g(a + i) = g(b + i) for 0 <= i < length."""
        return all(self.read(a + i, a + min(i + CHUNK, length)) ==
                   self.read(b + i, b + min(i + CHUNK, length)) for i in range(0, length, CHUNK))


def primes_of(p):
    q, found = 2, []
    while q * q <= p:
        if p % q == 0:
            found.append(q)
            while p % q == 0:
                p //= q
        q += 1
    return found + ([p] if p > 1 else [])


def problem(cert, values_path, regenerate_up_to):
    """What is wrong with the certificate, or None."""
    if cert.get("format") != "nimbers-certificate/1":
        return "not a nimbers-certificate/1"
    digits, p, n0, bound = cert["digits"], cert["period"], cert["preperiod"], cert["bound"]
    if not (digits and all(type(d) is int and 0 <= d < 8 for d in digits) and digits[0] in (0, 4)):
        return "the digits are not an octal game's (0..7, first digit 0 or 4)"
    if cert["game"] != f"{digits[0]}." + ("".join(map(str, digits[1:])) or "0"):
        return f"the code {cert['game']} is not the digits {digits}"
    if not (type(p) is int and type(n0) is int and p >= 1 and n0 >= 0):
        return "the period and pre-period are not integers p >= 1, n0 >= 0"
    t = max(k for k, d in enumerate(digits) if d) if any(digits) else 0
    if bound != 2 * max(n0, 1) + 2 * p + t:
        return f"the bound is {2 * max(n0, 1) + 2 * p + t} (2 max(n0, 1) + 2p + t), not {bound}"
    if values_path:
        g = Values(path=values_path)
    elif bound <= regenerate_up_to:
        g = Values(data=regenerate(digits, bound))
    else:
        return f"NOT CHECKED: the bound {bound} is past --regenerate {regenerate_up_to} (--values)"
    try:
        return value_problem(g, p, n0, bound, cert["sha256"])
    finally:
        if g.file:
            g.file.close()


def value_problem(g, p, n0, bound, sha256):
    """What the values say against the claims, or None."""
    sha = hashlib.sha256()
    for a in range(0, bound, CHUNK):
        sha.update(g.read(a, min(a + CHUNK, bound)))
    if sha.hexdigest() != sha256:
        return "the SHA-256 of g(0..bound-1) is not the certificate's"
    if not g.same(n0, n0 + p, bound - p - n0):
        return f"g(n + {p}) = g(n) fails for some {n0} <= n < {bound - p}"
    if n0 and g.read(n0 - 1, n0) == g.read(n0 - 1 + p, n0 + p):
        return f"the pre-period is less than {n0}"
    for q in primes_of(p):
        if g.same(n0, n0 + p // q, p):
            return f"the period is {p // q} or less, not {p}"
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("certificate")
    ap.add_argument("--values", help="g(0..) as little-endian uint32 (with --game in a file of many)")
    ap.add_argument("--game", help="check only the certificate of this code")
    ap.add_argument("--regenerate", type=int, default=4096, metavar="N")
    args = ap.parse_args(argv)
    unchecked = 0
    try:
        with open(args.certificate, encoding="utf-8") as f:
            text = f.read().strip()
        certs = [json.loads(line) for line in text.splitlines() if line.strip()] \
            if "\n{" in text else [json.loads(text)]
        certs = [c for c in certs if args.game in (None, c.get("game"))]
        if not certs or (args.values and len(certs) > 1):
            raise ValueError("no certificate of that game" if not certs else
                             "--values with several certificates: name one with --game")
        for cert in certs:
            wrong = problem(cert, args.values, args.regenerate)
            if wrong and wrong.startswith("NOT CHECKED"):
                unchecked += 1
                print(f"{cert['game']}: {wrong}")
            elif wrong:
                print(f"{cert.get('game')}: REFUSED: {wrong}")
                return 1
            else:
                print(f"{cert['game']}: period {cert['period']} from {cert['preperiod']} holds "
                      f"(g(0..{cert['bound'] - 1}), SHA-256 {cert['sha256'][:16]}...)")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"check_certificate: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    return 3 if unchecked else 0


if __name__ == "__main__":
    sys.exit(main())
