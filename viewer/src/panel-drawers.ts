/**
 * The viewer's panels as drawers on small screens (tablets, phones, short windows): the unit's
 * details, the legend, the unplaced units and the weight diagram stay beside and below the 3D
 * view while there is room; under style.css's breakpoints they are hidden, each behind a toggle
 * button of `#panel-toggles` (a disclosure: `aria-expanded`, `aria-controls` naming the panel),
 * and an opened one lies over the lower part of the 3D view. One drawer is open at a time; its
 * toggle again or Esc closes it.
 *
 * Which panels are drawers is CSS's decision alone (a toggle shown on screen means its panel is a
 * drawer), so the breakpoints live in one place. The open panel carries the class `open`.
 * A drawer opened by its toggle takes the focus (so Tab goes on inside it, not to the next
 * toggle); Esc from inside gives it back to the toggle.
 */

/** The toggles and the drawers they open. */
export class PanelDrawers {
  private readonly toggles: HTMLButtonElement[];

  /** `bar`: the element holding the toggle buttons, each naming its panel by `aria-controls`. */
  constructor(bar: HTMLElement) {
    this.toggles = [...bar.querySelectorAll<HTMLButtonElement>('button[aria-controls]')];
    for (const toggle of this.toggles) {
      toggle.addEventListener('click', () => {
        if (toggle.getAttribute('aria-expanded') === 'true') return this.close();
        this.open(this.panelId(toggle));
        if (this.isDrawer(this.panelId(toggle))) this.panelOf(toggle)?.focus({ preventScroll: true });
      });
    }
    document.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || !this.openToggle()) return;
      const toggle = this.openToggle()!;
      const focusInside = this.panelOf(toggle)?.contains(document.activeElement) ?? false;
      this.close();
      if (focusInside) toggle.focus();
    });
  }

  /** True when the panel with id `panelId` is a drawer on this screen (its toggle is shown). */
  isDrawer(panelId: string): boolean {
    const toggle = this.toggles.find((b) => this.panelId(b) === panelId);
    return !!toggle && toggle.getClientRects().length > 0;
  }

  /**
   * Opens the panel `panelId` (closing any other); the focus stays where it is. An open drawer
   * can take the focus (tabindex 0) so that a keyboard can scroll it when it is longer than its room.
   */
  open(panelId: string): void {
    for (const toggle of this.toggles) {
      const mine = this.panelId(toggle) === panelId;
      toggle.setAttribute('aria-expanded', String(mine));
      const panel = this.panelOf(toggle);
      panel?.classList.toggle('open', mine);
      if (mine && this.isDrawer(panelId)) panel?.setAttribute('tabindex', '0');
      else panel?.removeAttribute('tabindex');
    }
    document.body.dataset['drawer'] = panelId;
  }

  /** Closes the open drawer, if any. */
  close(): void {
    for (const toggle of this.toggles) {
      toggle.setAttribute('aria-expanded', 'false');
      this.panelOf(toggle)?.classList.remove('open');
      this.panelOf(toggle)?.removeAttribute('tabindex');
    }
    delete document.body.dataset['drawer'];
  }

  /** Sets the text of the toggle of `panelId` (e.g. with a count). */
  label(panelId: string, text: string): void {
    const toggle = this.toggles.find((b) => this.panelId(b) === panelId);
    if (toggle) toggle.textContent = text;
  }

  private panelId(toggle: HTMLButtonElement): string {
    return toggle.getAttribute('aria-controls') ?? '';
  }

  private panelOf(toggle: HTMLButtonElement): HTMLElement | null {
    return document.getElementById(this.panelId(toggle));
  }

  private openToggle(): HTMLButtonElement | undefined {
    return this.toggles.find((b) => b.getAttribute('aria-expanded') === 'true');
  }
}
