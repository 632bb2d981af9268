/**
 * Joining through the web app in a real browser, the way a person does: the invitation page's
 * form (name, password twice, "Accept invitation"), then the playground, signed in. For browser
 * tests whose subject is what comes after; test/browser/web-console.test.ts checks the form itself.
 */
import type { Page } from 'playwright-core';

/**
 * Opens `href` (the invitation's page, `/app/invitations/<token>`: a path against the context's
 * baseURL, or a full URL) in `page`, accepts it as `name` with `password` and waits until the
 * playground opens (the new member is signed in).
 */
export async function acceptInvitation(page: Page, href: string, name: string, password: string): Promise<void> {
  await page.goto(href);
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat password').fill(password);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await page.waitForURL('**/app/playground');
}
