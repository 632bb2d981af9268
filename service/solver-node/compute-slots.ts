/**
 * The compute slots of one solver node and the fair order in which waiting jobs get them
 *. A job waits here after the bus delivered its solve command and before its
 * search starts; when a slot frees, the next job is the oldest waiting job of the organization
 * that (1) has the fewest jobs computing on this node, then (2) began computing least lately
 * (never counts as earliest), so organizations take turns whatever the arrival order: one
 * organization's ten queued jobs do not hold back another's one. Pure bookkeeping, no timers;
 * "lately" is a start counter, not the clock.
 */

/** Thrown to a waiting job when the slots close (node shutdown): its message goes back to the bus. */
export class ComputeSlotsClosed extends Error {
  constructor() {
    super('the solver node is stopping; the job was handed back');
    this.name = 'ComputeSlotsClosed';
  }
}

/** Thrown to a waiting job whose wait was given up through its signal (the job ended meanwhile): it takes no slot. */
export class SlotWaitAborted extends Error {
  constructor() {
    super('the job stopped waiting for a compute slot');
    this.name = 'SlotWaitAborted';
  }
}

interface Waiter {
  orgId: string;
  /** Arrival number (lower = earlier). */
  arrival: number;
  resolve(release: () => void): void;
  reject(err: Error): void;
}

/** Frees the slot it was given for; calling it again does nothing. */
export type ReleaseSlot = () => void;

export class ComputeSlots {
  private readonly waiting: Waiter[] = [];
  /** Jobs computing per organization. */
  private readonly computing = new Map<string, number>();
  /** Start counter of each organization's last start. */
  private readonly lastStart = new Map<string, number>();
  private starts = 0;
  private arrivals = 0;
  private busy = 0;
  private closed = false;

  /** `size`: jobs computing at once on this node (SOLVER_CONCURRENCY), at least 1. */
  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`compute slots must be a whole number ≥ 1, got ${size}`);
  }

  /** Jobs computing now. */
  get inUse(): number {
    return this.busy;
  }

  /** Jobs waiting for a slot now. */
  get waitingJobs(): number {
    return this.waiting.length;
  }

  /**
   * Resolves with the slot's release once a job of `orgId` may compute (at once when a slot is
   * free and nobody waits). Rejects with ComputeSlotsClosed when the slots close first, and with
   * SlotWaitAborted when `signal` aborts first (the job leaves the queue).
   */
  acquire(orgId: string, signal?: AbortSignal): Promise<ReleaseSlot> {
    if (this.closed) return Promise.reject(new ComputeSlotsClosed());
    if (signal?.aborted) return Promise.reject(new SlotWaitAborted());
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const leave = (): void => {
        const index = this.waiting.indexOf(waiter);
        if (index < 0) return;
        this.waiting.splice(index, 1);
        reject(new SlotWaitAborted());
      };
      const waiter: Waiter = {
        orgId,
        arrival: this.arrivals++,
        resolve: (release) => {
          signal?.removeEventListener('abort', leave);
          resolve(release);
        },
        reject: (err) => {
          signal?.removeEventListener('abort', leave);
          reject(err);
        },
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.waiting.push(waiter);
      this.grant();
    });
  }

  /** Rejects every waiting job with ComputeSlotsClosed; jobs computing keep their slots until released. */
  close(): void {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new ComputeSlotsClosed());
  }

  /** The waiter to serve next (fair order above), or undefined. */
  private next(): Waiter | undefined {
    let best: Waiter | undefined;
    for (const w of this.waiting) {
      if (!best || this.before(w, best)) best = w;
    }
    return best;
  }

  private before(a: Waiter, b: Waiter): boolean {
    if (a.orgId !== b.orgId) {
      const ca = this.computing.get(a.orgId) ?? 0,
        cb = this.computing.get(b.orgId) ?? 0;
      if (ca !== cb) return ca < cb;
      const la = this.lastStart.get(a.orgId) ?? -1,
        lb = this.lastStart.get(b.orgId) ?? -1;
      if (la !== lb) return la < lb;
    }
    return a.arrival < b.arrival;
  }

  private grant(): void {
    while (this.busy < this.size) {
      const w = this.next();
      if (!w) return;
      this.waiting.splice(this.waiting.indexOf(w), 1);
      this.busy++;
      this.computing.set(w.orgId, (this.computing.get(w.orgId) ?? 0) + 1);
      this.lastStart.set(w.orgId, this.starts++);
      let released = false;
      w.resolve(() => {
        if (released) return;
        released = true;
        this.busy--;
        const left = (this.computing.get(w.orgId) ?? 1) - 1;
        if (left > 0) this.computing.set(w.orgId, left);
        else this.computing.delete(w.orgId);
        this.grant();
      });
    }
  }
}
