/** Placeholder: to be built (issue 11). */
export function AccountPage() {
  return <main><h1>console-account</h1></main>;
}
