/**
 * A keep-alive HTTP/1.1 client on one raw socket, for the load generator: it writes a request
 * and reads one response at a time, parsing only the status line and Content-Length.
 *
 * Why not node:http: on a 2-core machine the load generator shares the cores with the servers
 * it measures, and node:http's client cost about 0.17 ms of CPU per request (0.2 of a core at
 * 1,200 requests/s). Every cycle it takes is one a worker does not get, and a third busy
 * process on two cores preempts the workers (cold caches after each switch). This client does
 * the least a request needs. It expects what our servers and the reference server answer: a
 * Content-Length on every response (no chunked bodies); anything else is an error, not a guess.
 */
import { connect, type Socket } from "node:net";

export interface LeanResponse {
  status: number;
  body: Buffer;
}

const HEADER_END = Buffer.from("\r\n\r\n");
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;

export class LeanConnection {
  readonly #socket: Socket;
  readonly #host: string;
  #buffered: Buffer = Buffer.alloc(0);
  #waiting: { resolve(response: LeanResponse): void; reject(error: Error): void } | undefined;
  #failure: Error | undefined;

  private constructor(socket: Socket, host: string) {
    this.#socket = socket;
    this.#host = host;
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => {
      this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
      this.#parse();
    });
    const fail = (error: Error) => {
      this.#failure ??= error;
      this.#waiting?.reject(error);
      this.#waiting = undefined;
    };
    socket.on("error", fail);
    socket.on("close", () => fail(new Error("connection closed by the server")));
  }

  /** Opens a connection to `base` (`http://host:port`). */
  static open(base: string): Promise<LeanConnection> {
    const url = new URL(base);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () =>
        resolve(new LeanConnection(socket, url.host)),
      );
      socket.once("error", reject);
    });
  }

  /** Sends one request and resolves to its response; one at a time per connection. */
  request(method: string, path: string, body?: string): Promise<LeanResponse> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#waiting) return Promise.reject(new Error("one request at a time per connection"));
    const payload = body === undefined ? undefined : Buffer.from(body);
    const head =
      `${method} ${path} HTTP/1.1\r\nhost: ${this.#host}\r\n` +
      (payload
        ? `content-type: application/json\r\ncontent-length: ${payload.length}\r\n\r\n`
        : "\r\n");
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#socket.write(payload ? Buffer.concat([Buffer.from(head), payload]) : head);
    });
  }

  #parse(): void {
    const end = this.#buffered.indexOf(HEADER_END);
    if (end < 0 || !this.#waiting) return;
    const head = this.#buffered.toString("latin1", 0, end);
    const status = Number(head.slice(9, 12));
    const length = CONTENT_LENGTH.exec(head)?.[1];
    if (length === undefined) {
      this.#waiting.reject(new Error(`response without content-length: ${head.split("\r\n")[0]}`));
      this.#waiting = undefined;
      this.#socket.destroy();
      return;
    }
    const start = end + HEADER_END.length;
    const stop = start + Number(length);
    if (this.#buffered.length < stop) return;
    const body = this.#buffered.subarray(start, stop);
    this.#buffered = this.#buffered.subarray(stop);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting.resolve({ status, body });
  }

  close(): void {
    this.#failure ??= new Error("connection closed");
    this.#socket.destroy();
  }
}
