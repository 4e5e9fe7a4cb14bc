import { type Dispatcher, getGlobalDispatcher } from 'undici';

export interface Exchanged {
  status: number;
  text: string;
}

/**
 * An exchange whose request went out on a connection, but whose answer did not come whole (a timeout, a connection
 * closed): the server may have acted on it.
 */
export class NoAnswer extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause });
    this.name = 'NoAnswer';
  }
}

/**
 * One HTTP exchange through undici's dispatch API: the status and the body's text, without the response stream
 * that undici's request() builds for every call: core's sends to providers are on the path of every code.
 * `timeoutMs` bounds the whole exchange, from connecting to the body's last byte: a server that takes the request
 * and says nothing, or trickles its answer, fails it with "no answer within … ms". A failure once the request was
 * on its way is a NoAnswer.
 */
export function exchange(options: Dispatcher.DispatchOptions, timeoutMs: number): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let status = 0;
    // Made only when the deadline passes: an error's stack costs its making, on every send otherwise.
    let late: Error | undefined;
    let abort: ((reason: Error) => void) | undefined;
    /** Set once the request goes out on a connection: from then on, a failure leaves it unanswered. */
    let written = false;
    const fail = (error: Error) => reject(written ? new NoAnswer(error) : error);
    const timer = setTimeout(() => {
      late = new Error(`no answer within ${timeoutMs} ms`);
      fail(late);
      abort?.(late);
    }, timeoutMs);
    getGlobalDispatcher().dispatch(
      // Object.assign, not a spread that adds keys: on Node 20 that gives every send's options a V8 map of their own,
      // which each of undici's reads of them then pays for.
      Object.assign({}, options, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs }),
      {
        // Called once the request goes on a connection; until then, the deadline above stands alone.
        onConnect: (abortRequest: (reason: Error) => void) => {
          if (late) abortRequest(late);
          else {
            abort = abortRequest;
            written = true;
          }
        },
        onHeaders: (statusCode: number) => {
          status = statusCode;
          return true;
        },
        onData: (chunk: Buffer) => {
          chunks.push(chunk);
          return true;
        },
        onComplete: () => {
          clearTimeout(timer);
          resolve({ status, text: Buffer.concat(chunks).toString('utf8') });
        },
        onError: (error: Error) => {
          clearTimeout(timer);
          fail(error);
        },
      },
    );
  });
}
