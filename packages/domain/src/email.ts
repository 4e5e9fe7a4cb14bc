import { z } from 'zod';

/**
 * An email address as the platform takes, stores and documents it: zod's rule for the part before the `@`, and a
 * domain of host-name labels (RFC 1123: letters, digits and inner hyphens, at most 63 characters each) ending in a
 * top-level domain of letters. One rule for requests and responses, so no address taken breaks a documented answer.
 */
const address =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export const emailAddress = z.email({ pattern: address }).max(254);
