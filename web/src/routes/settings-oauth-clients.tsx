export default function Page() {
  return <h1>settings-oauth-clients</h1>;
}
