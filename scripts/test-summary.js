#!/usr/bin/env node
// Sums the results of every test runner the suite ran into the one line CI counts:
// "Tests: N passed, N failed". Reads Jest's and Playwright's JSON reports and the results of
// scripts/check-packages.js (`{ "tool": "package-contents", "passed", "failed" }`).
const fs = require('node:fs');

let passed = 0;
let failed = 0;
let skipped = 0;

for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) {
    console.error(
      `test-summary: ${file} is missing; counting its suite as one failure`,
    );
    failed += 1;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  if ('numPassedTests' in report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    if (report.numRuntimeErrorTestSuites > 0) {
      failed += report.numRuntimeErrorTestSuites;
    }
  } else if (report.tool === 'package-contents') {
    passed += report.passed;
    failed += report.failed;
  } else if (report.stats) {
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
  } else {
    console.error(
      `test-summary: ${file} is not a Jest, Playwright or package-contents report`,
    );
    failed += 1;
  }
}

console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
