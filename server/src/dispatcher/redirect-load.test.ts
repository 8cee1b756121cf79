// How much the redirects want the cores, as the dispatcher's thread hears it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redirectLoad } from './dispatcher-thread.js';

const cpu = (idle: number, total: number) => ({ idle, total });

test('a main thread under a third busy is a trickle of redirects: its own utilization, whatever the machine does', () => {
  assert.equal(redirectLoad(0.2, cpu(100, 1000), cpu(0, 0)), 0.2);
  assert.equal(redirectLoad(0, cpu(0, 1000), cpu(0, 0)), 0);
});

test('heavy redirects on a saturated machine read as busy, though their event loop still idles at times', () => {
  // 0.6 of the main thread, 5% of the machine idle: the cores are wanted.
  assert.equal(redirectLoad(0.6, cpu(150, 2000), cpu(100, 1000)), 0.95);
  // A machine with cores to spare: the main thread's own figure.
  assert.equal(redirectLoad(0.6, cpu(800, 2000), cpu(100, 1000)), 0.6);
  // A saturated loop stays saturated.
  assert.equal(redirectLoad(0.97, cpu(900, 2000), cpu(100, 1000)), 0.97);
});

test('no CPU time passed between the readings: the main thread alone', () => {
  assert.equal(redirectLoad(0.5, cpu(100, 1000), cpu(100, 1000)), 0.5);
});
