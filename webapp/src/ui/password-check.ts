/**
 * The checks of a new password made before sending it (invitation accept): typed twice
 * alike and at least MIN_PASSWORD_LENGTH characters. The service checks again and its message is
 * shown next to the field. Pure; tested in test/webapp/password-check.test.ts.
 */

/** Characters a new password needs at least (the service's rule may be stricter; it has the last word). */
export const MIN_PASSWORD_LENGTH = 10;

/** The problems of `password` typed twice (`repeat`), as messages; [] when fine. */
export function passwordProblems(password: string, repeat: string): string[] {
  const problems: string[] = [];
  if ([...password].length < MIN_PASSWORD_LENGTH)
    problems.push(`the password needs at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password !== repeat) problems.push('the two passwords differ');
  return problems;
}
