export default function Page() {
  return <h1>settings-billing</h1>;
}
