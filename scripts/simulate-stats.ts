// Prints the statistics' coverage grids (test/report/simulation.ts) as Markdown, as
// docs/report.md shows them: `npm run stats:simulate`.
import { simulationReport } from '../test/report/simulation.ts';

console.log(simulationReport());
