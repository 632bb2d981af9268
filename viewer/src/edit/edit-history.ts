/**
 * The operations of an edit session in the viewer (plan editing): what the person did since the
 * plan was opened, in order, as the wire operations a revision is saved with
 * (POST /v1/jobs/{id}/revisions `operations`), with undo and redo. Each deed is one operation;
 * a run of keyboard steps of one unit is merged into its last move or place, so the saved list
 * stays short and one undo takes the whole run back. Pure: no DOM.
 */
import type { EditOperation } from '../../../solver/edit/operations.js';

/** Options of `record`. */
export interface RecordOptions {
  /**
   * Merge into the last operation when both move or place the same unit: the last keeps its
   * kind (`place` stays `place`) and takes the new destination. For runs of keyboard steps.
   */
  merge?: boolean;
}

const sameUnit = (a: EditOperation, b: EditOperation): boolean =>
  a.op !== 'swap' && b.op !== 'swap' && a.item_id === b.item_id && a.instance === b.instance;

/** Done and undone operations of one edit session. */
export class EditHistory {
  private done: EditOperation[] = [];
  private undone: EditOperation[] = [];

  /** The operations in force, oldest first: what a save sends. */
  get operations(): readonly EditOperation[] {
    return this.done;
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** Records `op` (a new deed forgets what was undone); with `merge`, see RecordOptions. */
  record(op: EditOperation, options: RecordOptions = {}): void {
    this.undone = [];
    const last = this.done[this.done.length - 1];
    if (
      options.merge &&
      last &&
      op.op === 'move' &&
      (last.op === 'move' || last.op === 'place') &&
      sameUnit(last, op)
    ) {
      this.done[this.done.length - 1] = { ...op, op: last.op };
      return;
    }
    this.done.push(op);
  }

  /** Takes the last operation back; returns it, or null when there is none. */
  undo(): EditOperation | null {
    const op = this.done.pop();
    if (!op) return null;
    this.undone.push(op);
    return op;
  }

  /** Does the last undone operation again; returns it, or null when there is none. */
  redo(): EditOperation | null {
    const op = this.undone.pop();
    if (!op) return null;
    this.done.push(op);
    return op;
  }

  /** Forgets everything (after a save: the saved revision is the new start). */
  clear(): void {
    this.done = [];
    this.undone = [];
  }
}
