/**
 * The playground's kept draft (nothing typed is lost): the request being built, kept per member
 * (organization and user) in the browser's local storage, so that leaving the playground for
 * another page, a reload or a closed tab finds it again. Kept as the JSON editor's text, also
 * when it does not parse, with the time it was last changed. A member's draft is never read for
 * another member signed in on the same browser (the key names both). When the browser refuses
 * to keep it (storage disabled or full), a copy in memory still outlives a move to another page
 * of the web app, and the page warns before the tab is left (keptInBrowser false).
 * Pure but for the Storage passed in (tested from node with a stand-in).
 */

/** What this module reads of a Storage (the browser's `localStorage`, or a test's stand-in). */
export interface DraftStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** A kept draft: the JSON editor's text and when it was last changed (ISO 8601). */
export interface KeptDraft {
  text: string;
  savedAt: string;
}

/** Who a draft belongs to: the signed-in session's organization and user ids. */
export interface DraftOwner {
  organizationId: string;
  userId: string;
}

/** A draft larger than this (UTF-16 code units, about 2 MB of storage) is kept in memory only. */
export const MAX_KEPT_DRAFT_CHARS = 1_000_000;

const PREFIX = 'load-planner.playground-draft.v1';

/** The storage key of `owner`'s draft: one per organization and user. */
export function draftKey(owner: DraftOwner): string {
  return `${PREFIX}:${encodeURIComponent(owner.organizationId)}:${encodeURIComponent(owner.userId)}`;
}

/** Copies kept in memory, by key: they outlive a move between pages of the web app. */
const inMemory = new Map<string, KeptDraft>();

/**
 * `owner`'s kept draft: the one in `storage`, else the copy in memory, else null. A stored value
 * that is not a kept draft (another version, edited by hand) counts as none.
 */
export function keptDraft(storage: DraftStorage | null, owner: DraftOwner): KeptDraft | null {
  const key = draftKey(owner);
  let stored: string | null = null;
  try {
    stored = storage?.getItem(key) ?? null;
  } catch {
    // Storage refused (disabled by the browser's settings): the copy in memory stands.
  }
  if (stored !== null) {
    try {
      const value: unknown = JSON.parse(stored);
      if (isKeptDraft(value)) return value;
    } catch {
      // Not JSON: none kept in storage.
    }
  }
  return inMemory.get(key) ?? null;
}

/**
 * Keeps `text` as `owner`'s draft, changed at `now`; `empty` true (the empty request) forgets it
 * instead. Returns whether the browser keeps it (false: in memory only, lost with the tab).
 */
export function keepDraft(
  storage: DraftStorage | null,
  owner: DraftOwner,
  text: string,
  empty: boolean,
  now: Date = new Date(),
): boolean {
  if (empty) {
    forgetDraft(storage, owner);
    return true;
  }
  const key = draftKey(owner);
  const draft: KeptDraft = { text, savedAt: now.toISOString() };
  inMemory.set(key, draft);
  if (storage === null || text.length > MAX_KEPT_DRAFT_CHARS) return false;
  try {
    storage.setItem(key, JSON.stringify(draft));
    return true;
  } catch {
    // Quota exceeded or storage disabled.
    return false;
  }
}

/** Forgets `owner`'s draft, in storage and in memory (the playground's "Start over"). */
export function forgetDraft(storage: DraftStorage | null, owner: DraftOwner): void {
  const key = draftKey(owner);
  inMemory.delete(key);
  try {
    storage?.removeItem(key);
  } catch {
    // Storage refused: nothing was kept there.
  }
}

/** The browser's local storage, or null where reading it throws (storage disabled). */
export function browserStorage(): DraftStorage | null {
  try {
    // Typed without the DOM library: the module is also compiled for node's tests.
    return (globalThis as { localStorage?: DraftStorage }).localStorage ?? null;
  } catch {
    return null;
  }
}

function isKeptDraft(value: unknown): value is KeptDraft {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['text'] === 'string' && typeof v['savedAt'] === 'string';
}
