/**
 * Debian's chromium for the browser tests, through playwright-core (`.ci/run` installs it). One
 * launch recipe for every browser test: headless, no sandbox (CI runs as root), no GPU, no
 * background networking, and WebGL drawn by SwiftShader when `webgl` is asked for (the viewer).
 */
import type { Browser } from 'playwright-core';

/** Where Debian puts chromium. */
export const CHROMIUM = '/usr/bin/chromium';

/** Launches headless chromium; `webgl`: draw WebGL in software (SwiftShader). */
export async function launchChromium(options: { webgl?: boolean } = {}): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking'];
  if (options.webgl) args.push('--use-gl=swiftshader', '--enable-unsafe-swiftshader');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args });
}
