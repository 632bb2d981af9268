/**
 * In-process work-queue bus: the embedded profile's stand-in for NATS JetStream with the same
 * delivery rules (one consumer per message, ack/nak/term, redelivery, dedupe by message id), and
 * signals broadcast to this process's listeners.
 */
import type { Bus, BusConsumer, BusMessage } from '../../domain/ports/bus.js';

interface Pending {
  id: string;
  subject: string;
  data: unknown;
  attempt: number;
}

interface Consumer {
  subject: string;
  handler: (msg: BusMessage<unknown>) => Promise<void>;
  concurrency: number;
  active: number;
  closed: boolean;
}

export class InProcessBus implements Bus {
  private readonly queue: Pending[] = [];
  private readonly seen = new Set<string>();
  private readonly consumers: Consumer[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly listeners = new Map<string, Set<(data: unknown) => void>>();
  private closed = false;

  async publish(subject: string, id: string, data: unknown): Promise<void> {
    const key = `${subject}\u0000${id}`;
    if (this.closed || this.seen.has(key)) return;
    this.seen.add(key);
    this.queue.push({ id, subject, data: structuredClone(data), attempt: 0 });
    this.pump();
  }

  consume<T>(subject: string, handler: (msg: BusMessage<T>) => Promise<void>, concurrency = 1): BusConsumer {
    const consumer: Consumer = {
      subject,
      handler: handler as (msg: BusMessage<unknown>) => Promise<void>,
      concurrency,
      active: 0,
      closed: false,
    };
    this.consumers.push(consumer);
    this.pump();
    return {
      close: async () => {
        consumer.closed = true;
        this.consumers.splice(this.consumers.indexOf(consumer), 1);
      },
    };
  }

  private pump(): void {
    for (const consumer of this.consumers) {
      while (!consumer.closed && consumer.active < consumer.concurrency) {
        const index = this.queue.findIndex((p) => p.subject === consumer.subject);
        if (index < 0) break;
        const [pending] = this.queue.splice(index, 1);
        this.deliver(consumer, pending!);
      }
    }
  }

  private deliver(consumer: Consumer, pending: Pending): void {
    consumer.active += 1;
    pending.attempt += 1;
    let settled = false;
    const settle = (redeliverAfter?: number): void => {
      if (settled) return;
      settled = true;
      if (redeliverAfter !== undefined && !this.closed) {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.queue.push(pending);
          this.pump();
        }, redeliverAfter);
        this.timers.add(timer);
      }
    };
    const msg: BusMessage<unknown> = {
      id: pending.id,
      subject: pending.subject,
      data: structuredClone(pending.data),
      attempt: pending.attempt,
      ack: () => settle(),
      nak: (delayMs = 0) => settle(delayMs),
      working: () => undefined,
      term: () => settle(),
    };
    void consumer
      .handler(msg)
      // A handler that throws without settling gets the message again, like an unacked JetStream message.
      .catch(() => settle(1000))
      .finally(() => {
        if (!settled) settle(1000);
        consumer.active -= 1;
        setImmediate(() => this.pump());
      });
  }

  /**
   * Hands a copy of `data` to every listener of `subject` in a later turn of the event loop (as
   * a network signal would arrive); rejects when the bus is closed.
   */
  async signal(subject: string, data: unknown): Promise<void> {
    if (this.closed) throw new Error('InProcessBus is closed');
    const registered = this.listeners.get(subject);
    if (!registered || registered.size === 0) return;
    // The listeners of now, less those that stopped listening before it arrives.
    const handlers = [...registered];
    setImmediate(() => {
      for (const handler of handlers) {
        if (!registered.has(handler)) continue;
        try {
          handler(structuredClone(data));
        } catch {
          // A listener's failure is its own: the signal is not delivered again (port rule).
        }
      }
    });
  }

  onSignal<T>(subject: string, handler: (data: T) => void): () => void {
    let handlers = this.listeners.get(subject);
    if (!handlers) this.listeners.set(subject, (handlers = new Set()));
    const listener = handler as (data: unknown) => void;
    handlers.add(listener);
    return () => {
      handlers.delete(listener);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const handlers of this.listeners.values()) handlers.clear();
    this.listeners.clear();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const c of this.consumers) c.closed = true;
  }
}
