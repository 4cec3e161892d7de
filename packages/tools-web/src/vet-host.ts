import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { blockedAddressReason } from '@core/runtime';
import { WebFetchError } from './errors.js';
import { blockedHostNameReason, normaliseHostName } from './host-policy.js';

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses (default: the system resolver, `dns.lookup` with `all`). Tests inject a stub. */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver as a {@link HostLookup}. */
export const systemLookup: HostLookup = async (hostname) => {
  const addresses = await dnsLookup(hostname, { all: true, verbatim: true });
  return addresses.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/** How {@link vetHost} decides. */
export interface HostVettingOptions {
  /** Normalised host names (or IP literals) that skip the address checks. */
  allowHosts: ReadonlySet<string>;
  lookup: HostLookup;
}

/**
 * Resolves the URL's host and returns the addresses to connect to, in the resolver's order, after
 * checking every one of them (and the name itself) against the SSRF policy; hosts in `allowHosts` skip the checks.
 * @throws WebFetchError `fetch_blocked` for a refused host or address, `fetch_dns_failed` when the name does not resolve.
 */
export async function vetHost(url: URL, options: HostVettingOptions): Promise<ResolvedAddress[]> {
  const hostname = normaliseHostName(url.hostname);
  const allowed = options.allowHosts.has(hostname);
  if (!allowed) {
    const nameReason = blockedHostNameReason(hostname);
    if (nameReason !== undefined) throw refused(url, nameReason);
  }
  const literal = isIP(hostname);
  let addresses: ResolvedAddress[];
  if (literal !== 0) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await options.lookup(hostname);
    } catch (error) {
      throw new WebFetchError('fetch_dns_failed', url.href, `Could not resolve ${hostname}: ${error instanceof Error ? error.message : String(error)}. Check the URL.`, { cause: error });
    }
    if (addresses.length === 0) throw new WebFetchError('fetch_dns_failed', url.href, `${hostname} has no addresses. Check the URL.`);
  }
  if (!allowed) {
    for (const { address } of addresses) {
      const reason = blockedAddressReason(address);
      if (reason !== undefined) {
        throw refused(url, literal !== 0 ? `${address} is ${reason}` : `${hostname} resolves to ${address}, ${reason}`);
      }
    }
  }
  return addresses;
}

function refused(url: URL, reason: string): WebFetchError {
  return new WebFetchError('fetch_blocked', url.href, `Refused to fetch ${url.href}: ${reason}. web_fetch only reaches public internet addresses.`);
}
