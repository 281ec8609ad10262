/**
 * Which IP addresses the web fetch may connect to: public unicast only.
 *
 * Ranges come from `ipaddr.js` (a maintained list; nothing hand-rolled here except the arithmetic
 * that pulls an IPv4 address out of the IPv6 forms that carry one). An IPv6 address that embeds an
 * IPv4 address (mapped, translated, compatible, NAT64, 6to4, Teredo) is judged by the embedded
 * address too, because the packet ends up there.
 *
 * @module
 */
import ipaddr from "ipaddr.js";

/** The verdict on one address. */
export interface AddressVerdict {
  /** The address as given. */
  address: string;
  /** True only for a public unicast address. */
  allowed: boolean;
  /** The range name (`ipaddr.js` vocabulary, e.g. `loopback`, `private`, `unicast`). */
  range: string;
  /** Why, in words: "127.0.0.1 is loopback". */
  reason: string;
}

type V4 = ipaddr.IPv4;
type V6 = ipaddr.IPv6;

/** 2000::/3: the only IPv6 block IANA allocates for global unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3") as [V6, number];
/** 64:ff9b:1::/48 (RFC 8215): NAT64 prefix for local use; its embedding is operator-defined. */
const LOCAL_NAT64 = ipaddr.parseCIDR("64:ff9b:1::/48") as [V6, number];

function v4FromBytes(b: number[]): V4 {
  return new ipaddr.IPv4([b[0] & 255, b[1] & 255, b[2] & 255, b[3] & 255]);
}

/** An IPv4 address is allowed only when `ipaddr.js` calls it plain `unicast`. */
function judgeV4(ip: V4, shown: string): AddressVerdict {
  const range = ip.range();
  return range === "unicast"
    ? { address: shown, allowed: true, range, reason: `${shown} is public unicast` }
    : { address: shown, allowed: false, range, reason: `${shown} is ${range}` };
}

/** Wraps an embedded IPv4 verdict in the words of the outer IPv6 form. */
function embedded(shown: string, form: string, inner: V4): AddressVerdict {
  const v = judgeV4(inner, inner.toString());
  return v.allowed
    ? {
      address: shown,
      allowed: true,
      range: form,
      reason: `${shown} is ${form} of public ${v.address}`,
    }
    : {
      address: shown,
      allowed: false,
      range: form,
      reason: `${shown} is ${form} embedding ${v.address}, which is ${v.range}`,
    };
}

function judgeV6(ip: V6, shown: string): AddressVerdict {
  const range = ip.range();
  const b = ip.toByteArray();
  const deny = (r: string, why: string): AddressVerdict => ({
    address: shown,
    allowed: false,
    range: r,
    reason: `${shown} is ${why}`,
  });
  switch (range) {
    case "ipv4Mapped": // ::ffff:a.b.c.d
    case "rfc6145": // ::ffff:0:a.b.c.d (IPv4-translated)
      return embedded(
        shown,
        range === "ipv4Mapped" ? "IPv4-mapped" : "IPv4-translated",
        v4FromBytes(b.slice(12)),
      );
    case "rfc6052":
      // The well-known 64:ff9b::/96 carries the IPv4 address in its last 32 bits. The local-use
      // 64:ff9b:1::/48 may embed it anywhere the operator chose, so nobody can judge it: refuse.
      if (ip.match(LOCAL_NAT64)) return deny(range, "in the local-use NAT64 prefix 64:ff9b:1::/48");
      return embedded(shown, "NAT64", v4FromBytes(b.slice(12)));
    case "6to4": // 2002:AABB:CCDD::/48 → AA.BB.CC.DD
      return embedded(shown, "6to4", v4FromBytes(b.slice(2, 6)));
    case "teredo": {
      // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC — server IPv4, then the client IPv4 bit-inverted.
      const server = judgeV4(v4FromBytes(b.slice(4, 8)), v4FromBytes(b.slice(4, 8)).toString());
      if (!server.allowed) {
        return deny(range, `Teredo with server ${server.address}, which is ${server.range}`);
      }
      return embedded(shown, "Teredo", v4FromBytes(b.slice(12).map((x) => ~x)));
    }
    case "unicast": {
      if (b.slice(0, 12).every((x) => x === 0)) {
        // ::a.b.c.d, IPv4-compatible (deprecated by RFC 4291): not routable, whatever it embeds.
        const inner = v4FromBytes(b.slice(12)).toString();
        return deny("ipv4Compatible", `IPv4-compatible (deprecated ::/96) embedding ${inner}`);
      }
      if (!ip.match(GLOBAL_UNICAST_V6)) {
        return deny("unallocated", "outside global unicast 2000::/3");
      }
      return { address: shown, allowed: true, range, reason: `${shown} is public unicast` };
    }
    default:
      return deny(range, range);
  }
}

/**
 * Judges one IP address (v4 or v6, brackets allowed): allowed only when public unicast.
 *
 * Not an address at all is refused with range `invalid` (fail closed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judgeAddress } from "./address_policy.ts";
 * judgeAddress("169.254.169.254").allowed; // false ("is linkLocal")
 * assert.deepEqual(judgeAddress("::ffff:7f00:1").reason, "::ffff:7f00:1 is IPv4-mapped embedding 127.0.0.1, which is loopback");
 * assert.deepEqual(judgeAddress("93.184.215.14").allowed, true);
 * ```
 */
export function judgeAddress(address: string): AddressVerdict {
  const shown = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  // Strict parsing: only the canonical dotted-quad or IPv6 text. Odd IPv4 spellings (0177.0.0.1,
  // 2130706433) must have been normalised by the WHATWG URL parser before they get here.
  if (ipaddr.IPv4.isValidFourPartDecimal(shown)) return judgeV4(ipaddr.IPv4.parse(shown), shown);
  if (ipaddr.IPv6.isValid(shown) && !shown.includes("%")) {
    return judgeV6(ipaddr.IPv6.parse(shown), shown);
  }
  return {
    address: shown,
    allowed: false,
    range: "invalid",
    reason: `${shown} is not an IP address`,
  };
}

/**
 * True when `host` is an IP address literal (v4 dotted-quad or v6, brackets allowed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isIpLiteral } from "./address_policy.ts";
 * assert.deepEqual(isIpLiteral("[::1]"), true);
 * assert.deepEqual(isIpLiteral("example.com"), false);
 * ```
 */
export function isIpLiteral(host: string): boolean {
  const h = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return ipaddr.IPv4.isValidFourPartDecimal(h) || ipaddr.IPv6.isValid(h);
}
