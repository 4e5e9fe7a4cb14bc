import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';

/** Where tool calls may connect. A tool's URL is customer content: it must not reach the platform or its network. */
export interface EgressRules {
  /** Loopback and private ranges may be reached too: a backend on the developer's machine or beside the platform. */
  allowPrivateNetworks: boolean;
  /** The platform's own ports (core, gateway): refused on this host's addresses even where private networks are allowed. */
  platformPorts: ReadonlySet<number>;
}

/** A tool call that the egress rules refuse; its message says why, for the turn's trace. */
export class EgressRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EgressRefused';
  }
}

/** Cloud metadata services outside the link-local range (AWS's IPv6 one). */
const metadataAddresses = new Set(['fd00:ec2::254']);
const privateRanges = new Set(['private', 'carrierGradeNat', 'uniqueLocal', 'loopback', 'unspecified']);

/** This host's own addresses: the platform's ports listen on them when it binds beyond loopback. */
const ownAddresses = () =>
  new Set(
    Object.values(networkInterfaces())
      .flat()
      .flatMap((i) => (i ? [ipaddr.process(i.address.split('%')[0]!).toString()] : [])),
  );

/** The address as classified: IPv4-mapped and NAT64 (RFC 6052) addresses are the IPv4 addresses they carry. */
function normalise(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const ip = ipaddr.process(address.replace(/^\[|\]$/g, '').split('%')[0]!);
  if (ip.kind() === 'ipv6' && ip.range() === 'rfc6052') return ipaddr.fromByteArray(ip.toByteArray().slice(12));
  return ip;
}

/** Why a tool call may not connect to `address` on `port`, or undefined when it may. */
export function egressRefusal(address: string, port: number, rules: EgressRules): string | undefined {
  if (!ipaddr.isValid(address.replace(/^\[|\]$/g, '').split('%')[0]!)) return `${address} is not an IP address`;
  const ip = normalise(address);
  const text = ip.toString();
  const range = ip.range();
  if (range === 'linkLocal' || metadataAddresses.has(text)) return `${address} is a link-local or cloud metadata address`;
  const ownHost = range === 'loopback' || range === 'unspecified' || ownAddresses().has(text);
  if (ownHost && rules.platformPorts.has(port)) return `${address} port ${port} is this platform's own service`;
  if (ownHost || privateRanges.has(range)) {
    return rules.allowPrivateNetworks ? undefined : `${address} is a loopback or private address; tools reach only public addresses`;
  }
  return range === 'unicast' ? undefined : `${address} is not a public unicast address (${range})`;
}

/**
 * Resolves a host name and refuses it when any of its addresses is refused, so that a name with one public and
 * one private address cannot be played either way; the connection then uses exactly the addresses checked.
 */
function guardedLookup(port: number, rules: EgressRules): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.map((a) => egressRefusal(a.address, port, rules)).find(Boolean);
      if (refused) return callback(new EgressRefused(`${hostname} resolves to ${refused}`), '', 0);
      const [first] = addresses;
      if (!first) return callback(new EgressRefused(`${hostname} resolves to no address`), '', 0);
      // net asks for every address when it races IPv4 and IPv6 (autoSelectFamily), for one otherwise.
      if (options.all) (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

const defaultPort = (url: URL) => (url.protocol === 'https:' ? 443 : 80);

/**
 * A dispatcher for one request to `url`: refuses a URL whose scheme or literal address is refused, and connects
 * only to addresses that passed the check (a name is resolved once, by the check itself). Close it after use.
 */
export function egressDispatcher(url: URL, rules: EgressRules): Agent {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new EgressRefused(`${url.protocol} URLs are not allowed; tools call http or https`);
  const port = url.port ? Number(url.port) : defaultPort(url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // net looks up no literal address, so a literal is checked here.
  if (isIP(host)) {
    const refused = egressRefusal(host, port, rules);
    if (refused) throw new EgressRefused(refused);
  }
  return new Agent({ connect: { lookup: guardedLookup(port, rules) } });
}
