export default function Page() {
  return <h1>settings-members</h1>;
}
