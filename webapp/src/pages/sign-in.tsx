/** Placeholder: to be built (issue 11). */
export function SignInPage() {
  return <main><h1>sign-in</h1></main>;
}
