/**
 * Bus port (DESIGN §2): work-queue messages to solver nodes. A message is delivered to one
 * consumer until it is acked or terminated; `nak` redelivers it later; publishing the same
 * message id twice (within the dedupe window) delivers it once. Adapters: adapters/in-process
 * (embedded profile) and adapters/nats (NATS JetStream, distributed profile), both held to
 * these rules by test/contracts/bus.contract.ts.
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
}
