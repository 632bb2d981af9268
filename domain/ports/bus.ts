/**
 * Bus port (DESIGN §2): work-queue messages to solver nodes. A message is delivered to one
 * consumer until it is acked or terminated; `nak` redelivers it later; publishing the same
 * message id twice (within the dedupe window) delivers it once. Adapters: adapters/in-process
 * (embedded profile) and adapters/nats (NATS JetStream, distributed profile), both held to
 * these rules by test/contracts/bus.contract.ts.
 *
 * Besides the work queue, signals: fire-and-forget broadcasts to every process listening at the
 * moment (no storage, no redelivery, no acknowledgement); used where a lost signal only delays
 * something a slower path also does (e.g. a job ended while a node computes it: the node's slow
 * poll of the job notices it too).
 */

export interface BusMessage<T = unknown> {
  id: string;
  subject: string;
  data: T;
  /** Delivery attempt, 1 for the first. */
  attempt: number;
  /** Done: never delivered again. */
  ack(): void;
  /** Not done: deliver again after `delayMs`. */
  nak(delayMs?: number): void;
  /** Still working: extends the redelivery deadline. */
  working(): void;
  /** Give up: never delivered again. */
  term(reason: string): void;
}

export interface BusConsumer {
  close(): Promise<void>;
}

export interface Bus {
  /** Publishes a message; the same `id` published again is dropped. */
  publish(subject: string, id: string, data: unknown): Promise<void>;
  /** Delivers messages of `subject` to `handler`, at most `concurrency` at a time (default 1). */
  consume<T>(subject: string, handler: (msg: BusMessage<T>) => Promise<void>, concurrency?: number): BusConsumer;
  close(): Promise<void>;
  /**
   * Broadcasts `data` (JSON) to every `onSignal` handler of `subject` in every process connected
   * now, once each; not stored, so a process that is away misses it. Signal subjects lie outside
   * the work-queue subjects (NATS: a core subject no stream covers, e.g. `signals.job-ended`).
   * Resolves once handed to the transport (not when heard); rejects when the bus is closed.
   */
  signal(subject: string, data: unknown): Promise<void>;
  /**
   * Calls `handler` with the data of each signal on `subject` from now on, until the returned
   * function is called. A handler that throws is ignored (the signal is gone either way).
   */
  onSignal<T>(subject: string, handler: (data: T) => void): () => void;
}
