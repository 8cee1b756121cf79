export default function Page() {
  return <h1>settings-keys</h1>;
}
