export default function Page() {
  return <h1>webhook-detail</h1>;
}
