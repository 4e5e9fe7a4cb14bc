import { BlockList, isIPv6 } from 'node:net';
import { DomainError } from '@svc/domain';
import type { RequestHandler } from 'express';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/**
 * Refuses requests from anywhere but this machine. `req.ip` is the socket's address, or the client a proxy on
 * loopback forwarded for, so a request relayed by a local proxy from elsewhere is refused too.
 */
export const loopbackOnly: RequestHandler = (req, _res, next) => {
  const ip = req.ip ?? '';
  if (ip && loopback.check(ip, isIPv6(ip) ? 'ipv6' : 'ipv4')) next();
  else next(new DomainError('forbidden', 'the dev pages answer only requests from this machine'));
};
