/**
 * The loading-step slider and its play button ("a step slider and play button that
 * loads the plan step by step"). The slider is a native range input (arrow keys, Page Up/Down,
 * Home, End work as everywhere); step 0 shows the empty vehicle, the last step the whole load.
 * Play runs from the current step (from 0 when at the end) to the end in at most about 20 s, at
 * no fewer than 4 steps a second, and stops there; any slider move stops it.
 */

/** The elements of the control. */
export interface StepElements {
  slider: HTMLInputElement;
  play: HTMLButtonElement;
  output: HTMLOutputElement;
}

export class StepControl {
  private last = 0;
  private playing = false;
  private frame = 0;

  /** `onStep(step)` runs on every change, by hand or by play; `describe(step)` is the readout. */
  constructor(
    private readonly els: StepElements,
    private readonly onStep: (step: number) => void,
    private readonly describe: (step: number) => string,
  ) {
    els.slider.addEventListener('input', () => {
      this.stop();
      this.apply(Number(els.slider.value));
    });
    els.play.addEventListener('click', () => (this.playing ? this.stop() : this.start()));
  }

  /** A new vehicle: steps 0..`lastStep`, showing all of them, or those up to `at` (clamped; a redraw of an edited plan keeps its step). */
  reset(lastStep: number, at = lastStep): void {
    this.stop();
    this.last = lastStep;
    this.els.slider.min = '0';
    this.els.slider.max = String(lastStep);
    this.els.slider.step = '1';
    this.set(at);
  }

  /** Moves to `step` (clamped) as if the slider had been moved there. */
  set(step: number): void {
    const s = Math.max(0, Math.min(this.last, Math.round(step)));
    this.els.slider.value = String(s);
    this.apply(s);
  }

  get value(): number {
    return Number(this.els.slider.value);
  }

  private apply(step: number): void {
    const text = this.describe(step);
    this.els.output.value = text;
    this.els.slider.setAttribute('aria-valuetext', text);
    this.onStep(step);
  }

  private start(): void {
    if (this.last === 0) return;
    if (this.value >= this.last) this.set(0);
    this.playing = true;
    this.els.play.setAttribute('aria-pressed', 'true');
    this.els.play.textContent = 'Pause';
    const perSecond = Math.max(4, this.last / 20);
    const from = this.value;
    const began = performance.now();
    const tick = (now: number): void => {
      if (!this.playing) return;
      const step = Math.min(this.last, from + Math.floor(((now - began) / 1000) * perSecond));
      if (step !== this.value) {
        this.els.slider.value = String(step);
        this.apply(step);
      }
      if (step >= this.last) this.stop();
      else this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
  }

  /** Stops playing (no-op when not playing). */
  stop(): void {
    if (!this.playing) return;
    this.playing = false;
    cancelAnimationFrame(this.frame);
    this.els.play.setAttribute('aria-pressed', 'false');
    this.els.play.textContent = 'Play';
  }
}
