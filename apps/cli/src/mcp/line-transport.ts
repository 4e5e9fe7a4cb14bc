import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Refusal, Screened } from './request-screen.ts';

/**
 * The longest line `svc mcp` reads, in bytes: a message to its tools takes a few hundred. A longer line is answered
 * with an error and skipped as it arrives, never held whole in memory.
 */
export const maxLineBytes = 1024 * 1024;

const newline = 0x0a;

/**
 * MCP's stdio transport, one JSON-RPC message per line, that survives what a client should not send: a line over
 * `maxLineBytes`, one that is not UTF-8 JSON, or one `screen` refuses each gets its JSON-RPC error, and the next line
 * is read as if nothing happened. Messages the screen takes go to the server.
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** The bytes of the line being read, so far. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The line being read is over the limit: its bytes are dropped up to its newline. */
  private skipping = false;
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });

  constructor(
    private readonly screen: (value: unknown) => Screened,
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly limit: number = maxLineBytes,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.read);
    this.input.on('error', this.failed);
    this.input.once('end', this.ended);
  }

  async close(): Promise<void> {
    this.input.off('data', this.read);
    this.input.off('error', this.failed);
    this.input.off('end', this.ended);
    this.pending = [];
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  private readonly failed = (error: Error) => this.onerror?.(error);
  private readonly ended = () => void this.close();

  private readonly read = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let start = 0; start < bytes.length;) {
      const end = bytes.indexOf(newline, start);
      const piece = bytes.subarray(start, end === -1 ? bytes.length : end);
      if (!this.skipping && this.pendingBytes + piece.length > this.limit) {
        this.skipping = true;
        this.pending = [];
        this.pendingBytes = 0;
        void this.refuse({
          id: null,
          code: ErrorCode.InvalidRequest,
          message: `Invalid Request: a line may hold at most ${this.limit} bytes; this one was skipped`,
        });
      } else if (!this.skipping) {
        this.pending.push(piece);
        this.pendingBytes += piece.length;
      }
      if (end === -1) return;
      if (!this.skipping) this.line(Buffer.concat(this.pending, this.pendingBytes));
      this.skipping = false;
      this.pending = [];
      this.pendingBytes = 0;
      start = end + 1;
    }
  };

  private line(bytes: Buffer): void {
    let value: unknown;
    try {
      const text = this.utf8.decode(bytes);
      // A blank line carries no message (a client's CRLF, or a newline too many).
      if (text.trim() === '') return;
      value = JSON.parse(text);
    } catch {
      void this.refuse({ id: null, code: ErrorCode.ParseError, message: 'Parse error: the line is not UTF-8 JSON' });
      return;
    }
    const screened = this.screen(value);
    if ('refusal' in screened) void this.refuse(screened.refusal);
    else if ('message' in screened) this.onmessage?.(screened.message);
  }

  private refuse({ id, code, message }: Refusal): Promise<void> {
    return this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private write(message: object): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }
}
