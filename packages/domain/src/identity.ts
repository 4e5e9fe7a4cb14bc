import { z } from 'zod';
import { emailAddress } from './email.ts';

export const tokenPrefix = 'svc_';

export const whoami = z
  .object({
    user: z.object({ id: z.string(), email: emailAddress }),
    token: z.object({
      id: z.string(),
      name: z.string(),
      created_at: z.iso.datetime(),
      last_used_at: z.iso.datetime().nullable(),
    }),
  })
  .meta({ id: 'Whoami' });
export type Whoami = z.infer<typeof whoami>;
