package dev.cairn.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportGeneratorTest
{
    private static String sample() throws IOException
    {
        try (InputStream in = ReportGeneratorTest.class.getResourceAsStream("/sample-jmh.json"))
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static ResultSet results() throws IOException
    {
        return ResultSet.parse(sample());
    }

    @Test
    void readsEveryBenchmarkThatFollowsTheNamingConventionAndSkipsTheRest() throws IOException
    {
        final ResultSet results = results();

        assertEquals(7, results.results().size());
        assertEquals(List.of("org.example.Other.measure"), results.skipped());
        final Result cairn = results.find(Library.CAIRN, Workloads.ITERATE2, 1_000_000);
        assertEquals(1.5, cairn.nanos(), 1e-9);
        assertEquals(0.1, cairn.error(), 1e-9);
        assertEquals(0.0001, cairn.bytes(), 1e-12);
        assertTrue(Double.isNaN(results.find(Library.DOMINION, Workloads.ITERATE2, 1_000_000).error()));
        assertNull(results.find(Library.ASHLEY, Workloads.ITERATE2, 1_000_000));
        assertEquals(List.of(10_000), results.sizes(Workloads.CREATE));
        assertEquals("17.0.15", results.setting("jdkVersion"));
        assertEquals("1", results.setting("forks"));
    }

    @Test
    void tableRowsShowNanosPerEntityAndRatiosAgainstPeersAndBaselines() throws IOException
    {
        final String page = ResultsPage.markdown(results(), machine(), "quick", "bench/results/quick.json", "c.svg");

        assertTrue(page.contains(
            "| iterate 2 components | 1M | **1.50** ± 0.10 | - | - | - | 9.00 | 6.00 ± 0.50 | - | 0.50 ± 0.01 | 1.00 ± 0.02 |"),
            page);
        assertTrue(page.contains("| iterate 2 components | 1M | 6.00x | 4.00x | - | 0.33x | 0.67x |"), page);
        assertTrue(page.contains("| iterate 2 components | 1M | 0.00 | - | - | - | 24.00 | 0.00 | - | 0.00 | 0.00 |"), page);
        assertTrue(page.contains("Test CPU, 2 cores (nproc), 8.0 GiB RAM"), page);
        assertTrue(page.contains("`bench/run-benchmarks.sh quick`"), page);
        assertTrue(page.contains("| code | commit abc1234 |"), page);
        assertTrue(page.contains("![Nanoseconds per entity, log scale](c.svg)"), page);
        assertTrue(page.contains("org.example.Other.measure"), page);
    }

    @Test
    void theHostSpeedRowGivesTheFloatLoopInCacheSoThatRunsOnSlowerHostsCanBeToldApart() throws IOException
    {
        final ResultSet inCache = ResultSet.parse(
            sample().replace("ArrayIteration.iterate2_1M", "ArrayIteration.iterate2_10K"));

        assertTrue(ResultsPage.markdown(inCache, machine(), "quick", "q.json", "c.svg")
            .contains("| host speed | 0.500 ns per entity for the float[] loop over 2 components of 10K entities"));
        assertFalse(ResultsPage.markdown(results(), machine(), "quick", "q.json", "c.svg").contains("host speed"),
            "no row without the loop at 10K");
    }

    @Test
    void goalsSayMetOrMissedAndByHowMuch() throws IOException
    {
        final List<Goal> goals = Goal.evaluate(results());

        assertEquals(14, goals.size(), "the sample has no exclusion workload, so no exclusion goal");
        assertEquals("not measured", goals.get(13).verdict(), "the sample has no destroy-many result");
        assertTrue(goals.get(0).met(), goals.get(0).toString());
        assertEquals("met, 25% under the limit", goals.get(0).verdict());
        assertTrue(goals.get(1).met(), goals.get(1).toString());
        assertTrue(goals.get(1).measured().startsWith("smallest ratio 4.00x"), goals.get(1).measured());
        assertTrue(goals.get(2).met(), goals.get(2).toString());
        assertTrue(goals.get(3).met(), goals.get(3).toString());
        assertFalse(goals.get(4).met(), goals.get(4).toString());
        assertEquals("missed, 17% over the limit (2.04 ns too slow)", goals.get(4).verdict());
        assertTrue(goals.get(5).met(), goals.get(5).toString());
        for (final Goal group : goals.subList(6, 13))
        {
            assertEquals("not measured", group.verdict(), "the sample has no group results");
        }
    }

    @Test
    void theGroupsGoalsCompareItWithTheBaselinesInTheSameRun() throws IOException
    {
        final String cairn = "\"benchmark\": \"dev.cairn.bench.cairn.CairnIteration.iterate2_1M\"";
        final String json = sample();
        final int start = json.lastIndexOf('{', json.indexOf(cairn));
        final int end = json.indexOf("\n    },", start) + "\n    },".length();
        final String group = json.substring(start, end)
            .replace("CairnIteration.iterate2_1M", "CairnGroupIteration.iterate2_1M")
            .replace("\"score\": 1.5,", "\"score\": 0.9,");
        final String byIndex = group.replace("CairnGroupIteration", "CairnGroupIndexIteration")
            .replace("\"score\": 0.9,", "\"score\": 1.2,");
        final String byBlock = group.replace("CairnGroupIteration", "CairnGroupBlockIteration")
            .replace("\"score\": 0.9,", "\"score\": 0.3,");
        final ResultSet results = ResultSet.parse(json.substring(0, start) + group + "\n    " + byIndex + "\n    " +
            byBlock + "\n    " + json.substring(start));

        assertEquals(0.9, results.find(Library.CAIRN_GROUP, Workloads.ITERATE2, 1_000_000).nanos(), 1e-9);
        assertEquals(1.2, results.find(Library.CAIRN_GROUP_INDEX, Workloads.ITERATE2, 1_000_000).nanos(), 1e-9);
        assertEquals(1.5, results.find(Library.CAIRN, Workloads.ITERATE2, 1_000_000).nanos(), 1e-9);
        final List<Goal> goals = Goal.evaluate(results);
        assertEquals("met, 10% under the limit", goals.get(6).verdict(), goals.get(6).toString());
        assertEquals("met, 10% under the limit", goals.get(7).verdict(), goals.get(7).toString());
        assertTrue(goals.get(7).measured().contains("UnsafeBuffer loop's 1.00 ns"), goals.get(7).measured());
        assertTrue(goals.get(8).goal().startsWith("full-owning group by index"), goals.get(8).toString());
        assertEquals("missed, 20% over the limit", goals.get(8).verdict(), goals.get(8).toString());
        assertEquals("missed, 20% over the limit", goals.get(9).verdict(), goals.get(9).toString());
        assertEquals(0.3, results.find(Library.CAIRN_GROUP_BLOCK, Workloads.ITERATE2, 1_000_000).nanos(), 1e-9);
        assertTrue(goals.get(10).goal().startsWith("full-owning group by block"), goals.get(10).toString());
        assertEquals("met, 70% under the limit", goals.get(10).verdict(), goals.get(10).toString());
        assertEquals("met, 70% under the limit", goals.get(11).verdict(), goals.get(11).toString());
    }

    @Test
    void forksThatSettledInDifferentSteadyStatesAreMarkedAndListed() throws IOException
    {
        final String oneFork = "\"rawData\": [\n                [\n                    1.5,\n" +
            "                    1.5\n                ]\n            ]";
        final String json = sample();
        assertTrue(json.contains(oneFork), "the sample's first result has one fork of two iterations");
        final String twoForks = "\"rawData\": [[1.0, 1.0], [2.0, 2.0]]";

        final ResultSet results = ResultSet.parse(json.replaceFirst(java.util.regex.Pattern.quote(oneFork), twoForks));
        final String page = ResultsPage.markdown(results, machine(), "quick", "bench/results/quick.json", "c.svg");
        final String agreeing =
            ResultsPage.markdown(results(), machine(), "quick", "bench/results/quick.json", "c.svg");

        final Result cairn = results.find(Library.CAIRN, Workloads.ITERATE2, 1_000_000);
        assertEquals(1.0, cairn.fastestFork(), 1e-9);
        assertEquals(2.0, cairn.slowestFork(), 1e-9);
        assertTrue(page.contains("| **1.50** ± 0.10 † |"), page);
        assertTrue(page.contains("- iterate 2 components at 1M, Cairn: forks from 1.00 to 2.00 ns"), page);
        assertFalse(agreeing.contains("†"), "one fork, or forks that agree, are not marked");
    }

    @Test
    void goalsWithoutResultsAreMissedAsNotMeasured()
    {
        final List<Goal> goals = Goal.evaluate(ResultSet.parse("[]"));

        for (final Goal goal : goals)
        {
            assertFalse(goal.met(), goal.toString());
            assertEquals("not measured", goal.verdict());
        }
    }

    @Test
    void onlyTheFastestLibraryOfARowIsBoldEvenWhenItIsNotCairn() throws IOException
    {
        // Artemis-odb at 1.2 ns beats Cairn's 1.5; the baselines (0.5, 1.0) are faster still but are not libraries.
        final ResultSet results = ResultSet.parse(sample().replace("\"score\": 6.0,", "\"score\": 1.2,"));

        final String page = ResultsPage.markdown(results, machine(), "quick", "bench/results/quick.json", "c.svg");

        assertTrue(page.contains(
            "| iterate 2 components | 1M | 1.50 ± 0.10 | - | - | - | 9.00 | **1.20** ± 0.50 | - | 0.50 ± 0.01 | 1.00 ± 0.02 |"),
            page);
        assertTrue(page.contains("In each row the fastest library is in **bold**"), page);
    }

    @Test
    void chartIsWellFormedSvgWithOneBarPerResultAnErrorBarPerIntervalAndNaForEveryMissingResult() throws Exception
    {
        final ResultSet results = results();
        final String svg = BarChart.svg(results, "quick profile; <test> & \"machine\"");

        final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        final Document document = factory.newDocumentBuilder()
            .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertEquals("svg", document.getDocumentElement().getLocalName());
        assertEquals("http://www.w3.org/2000/svg", document.getDocumentElement().getNamespaceURI());
        int bars = 0;
        for (int i = 0; i < document.getElementsByTagName("rect").getLength(); i++)
        {
            if (document.getElementsByTagName("rect").item(i).getFirstChild() != null)
            {
                bars++;
            }
        }
        assertEquals(7, bars);

        int intervals = 0;
        for (final Result result : results.results())
        {
            intervals += Double.isFinite(result.error()) && result.error() > 0 ? 1 : 0;
        }
        assertTrue(intervals > 0 && intervals < 7, "the sample has results with and without an interval");
        assertEquals(intervals, count(document, "path", "error"));
        assertTrue(svg.contains("Cairn: 1.50 ± 0.10 ns/entity"), svg);

        // Three groups (iterate 2 at 1M, create and destroy at 10K) of six libraries, seven results: 11 missing.
        assertEquals(3 * Library.values().length - 7, count(document, "text", "missing"));
        assertTrue(svg.contains("Ashley: no result"), svg);
    }

    private static int count(final Document document, final String tag, final String cssClass)
    {
        int count = 0;
        for (int i = 0; i < document.getElementsByTagName(tag).getLength(); i++)
        {
            final org.w3c.dom.Node node = document.getElementsByTagName(tag).item(i);
            final org.w3c.dom.Node attribute = node.getAttributes().getNamedItem("class");
            if (attribute != null && cssClass.equals(attribute.getNodeValue()))
            {
                count++;
            }
        }
        return count;
    }

    @Test
    void generatorWritesPageAndChartFromAnExistingJsonFile(@TempDir final Path dir) throws Exception
    {
        final Path json = dir.resolve("quick.json");
        Files.writeString(json, sample(), StandardCharsets.UTF_8);
        machine().write(Machine.sidecar(json));
        final Path page = dir.resolve("docs").resolve("benchmarks.md");
        final Path svg = dir.resolve("docs").resolve("benchmarks.svg");

        ReportGenerator.generate(json, page, svg);

        final String text = Files.readString(page);
        assertTrue(text.startsWith("# Benchmarks"), text);
        assertTrue(text.contains("Test CPU"), text);
        assertTrue(text.contains("](benchmarks.svg)"), text);
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
    }

    @Test
    void regeneratingThePageKeepsWhatIsWrittenByHandAfterItsMarkerAndReplacesTheRest(@TempDir final Path dir)
        throws Exception
    {
        final Path json = dir.resolve("quick.json");
        Files.writeString(json, sample(), StandardCharsets.UTF_8);
        machine().write(Machine.sidecar(json));
        final Path page = dir.resolve("benchmarks.md");
        final Path svg = dir.resolve("benchmarks.svg");
        final String kept = ResultsPage.HAND_WRITTEN + "\n\n## Earlier measurements\n\nby hand\n";
        Files.writeString(page, "# Benchmarks\n\nan old generated table\n\n" + kept, StandardCharsets.UTF_8);

        ReportGenerator.generate(json, page, svg);
        ReportGenerator.generate(json, page, svg);

        final String text = Files.readString(page);
        assertFalse(text.contains("an old generated table"), text);
        assertTrue(text.contains("Test CPU"), text);
        assertTrue(text.endsWith(kept), text);
        assertEquals(text.indexOf(ResultsPage.HAND_WRITTEN), text.lastIndexOf(ResultsPage.HAND_WRITTEN), text);
    }

    @Test
    void jsonReaderHandlesJmhNumbersStringsAndEscapes()
    {
        assertEquals(
            List.of(1.0, -2.5e3, "a\"b\\c\u00e9", true, false),
            Json.parse("[1, -2.5E3, \"a\\\"b\\\\c\\u00e9\", true, false]"));
        assertTrue(Double.isNaN((Double)((List<?>)Json.parse("[NaN]")).get(0)));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> Json.parse("[1, }"));
        assertTrue(ex.getMessage().contains("offset 4"), ex.getMessage());
    }

    private static Machine machine()
    {
        return new Machine("Test CPU", 2, "8.0 GiB", "Linux", "bench/run-benchmarks.sh quick", "2025-01-01T00:00:00Z",
            "abc1234", "0.1 before, 0.9 after");
    }
}
