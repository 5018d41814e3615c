package io.sluice.tools.tail;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * Draws latency percentile distributions as a PNG, the usual HdrHistogram plot, one line per hop. Latency (µs, log
 * scale) against percentile on a "nines" axis (log10 of 1 / (1 - p): 1 is 90%, 2 is 99%, 3 is 99.9% ...), up to the
 * max, drawn at log10 of the count. Headless; drawn with XChart.
 */
public final class PercentilePlot {
    private static final int WIDTH = 1_000;
    private static final int HEIGHT = 600;
    private static final int TICKS_PER_HALF_DISTANCE = 5;
    /** Log axes cannot show 0: latencies below this are drawn at it. */
    private static final double FLOOR_MICROS = 0.01;

    private PercentilePlot() {
    }

    /** Writes the distribution of each non-empty histogram (recorded in nanoseconds) to {@code png}. */
    public static void write(final Path png, final String title, final List<String> labels, final List<Histogram> histograms) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        // In memory, not through a temporary file whose cleanup needs a shutdown hook: the plot is often
        // drawn while the JVM shuts down (Ctrl-C), when no hook may be added.
        ImageIO.setUseCache(false);
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("percentile, in nines: 1 = 90%, 2 = 99%, 3 = 99.9%, 4 = 99.99%, 5 = 99.999%")
                .yAxisTitle("latency (µs)").build();
        final XYStyler styler = chart.getStyler();
        styler.setYAxisLogarithmic(true);
        styler.setXAxisMin(0.0);
        // Plain numeric ticks: XChart's label callback can spin forever on a nines axis.
        styler.setXAxisDecimalPattern("0.#");
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        for (int i = 0; i < histograms.size(); i++) {
            final Histogram histogram = histograms.get(i);
            if (histogram.getTotalCount() > 0) {
                addSeries(chart, labels.get(i), histogram);
            }
        }
        if (chart.getSeriesMap().isEmpty()) {
            chart.addSeries("no data", new double[] {1}, new double[] {FLOOR_MICROS});
        }
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write the plot " + png.toAbsolutePath(), e);
        }
    }

    private static void addSeries(final XYChart chart, final String label, final Histogram histogram) {
        final List<Double> x = new ArrayList<>();
        final List<Double> y = new ArrayList<>();
        for (final HistogramIterationValue value : histogram.percentiles(TICKS_PER_HALF_DISTANCE)) {
            final double percentile = value.getPercentileLevelIteratedTo();
            if (percentile >= 100.0) {
                break;
            }
            x.add(Math.log10(100.0 / (100.0 - percentile)));
            y.add(micros(value.getValueIteratedTo()));
        }
        x.add(Math.max(x.isEmpty() ? 0 : x.getLast(), Math.log10(histogram.getTotalCount())));
        y.add(micros(histogram.getMaxValue()));
        final XYSeries series = chart.addSeries(label, x, y);
        series.setMarker(SeriesMarkers.NONE);
    }

    private static double micros(final long nanos) {
        return Math.max(nanos / 1_000.0, FLOOR_MICROS);
    }
}
