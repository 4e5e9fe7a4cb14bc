import { type Dispatcher, getGlobalDispatcher } from 'undici';

export interface Exchanged {
  status: number;
  text: string;
}

/**
 * One HTTP exchange through undici's dispatch API: the status and the body's text, without the response stream
 * that undici's request() builds for every call: core's sends to providers are on the path of every code.
 */
export function exchange(options: Dispatcher.DispatchOptions): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let status = 0;
    getGlobalDispatcher().dispatch(options, {
      onConnect: () => {},
      onHeaders: (statusCode: number) => {
        status = statusCode;
        return true;
      },
      onData: (chunk: Buffer) => {
        chunks.push(chunk);
        return true;
      },
      onComplete: () => resolve({ status, text: Buffer.concat(chunks).toString('utf8') }),
      onError: reject,
    });
  });
}
