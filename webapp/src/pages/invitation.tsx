/** Placeholder: to be built (issue 11). */
export function InvitationPage() {
  return <main><h1>invitation</h1></main>;
}
