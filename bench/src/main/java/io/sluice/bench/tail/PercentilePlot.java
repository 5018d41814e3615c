package io.sluice.bench.tail;

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
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws latency percentile distributions as a PNG: one line per hop, latency (µs, log scale) against
 * percentile on a log-scale "nines" axis (x = 1 / (1 - p), labelled 90%, 99%, 99.9% ...), the usual
 * HdrHistogram plot. Headless; drawn with XChart.
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
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("percentile").yAxisTitle("latency (µs)").build();
        final XYStyler styler = chart.getStyler();
        styler.setXAxisLogarithmic(true);
        styler.setYAxisLogarithmic(true);
        styler.setxAxisTickLabelsFormattingFunction(PercentilePlot::nines);
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
            x.add(100.0 / (100.0 - percentile));
            y.add(micros(value.getValueIteratedTo()));
        }
        x.add(Math.max(x.isEmpty() ? 1 : x.getLast(), histogram.getTotalCount()));
        y.add(micros(histogram.getMaxValue()));
        final XYSeries series = chart.addSeries(label, x, y);
        series.setMarker(SeriesMarkers.NONE);
    }

    private static double micros(final long nanos) {
        return Math.max(nanos / 1_000.0, FLOOR_MICROS);
    }

    /** @return the percentile that x = 1 / (1 - p) stands for, e.g. "99.9%" for 1000. */
    static String nines(final double x) {
        final double percentile = 100.0 - 100.0 / x;
        if (percentile <= 0) {
            return "0%";
        }
        return String.format(Locale.ROOT, "%s%%", new BigDecimal(percentile)
                .round(new MathContext(Math.max(2, (int) Math.ceil(Math.log10(x)) + 1)))
                .stripTrailingZeros().toPlainString());
    }
}
