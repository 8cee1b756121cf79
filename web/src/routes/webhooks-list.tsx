export default function Page() {
  return <h1>webhooks-list</h1>;
}
