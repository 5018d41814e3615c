package io.sluice.bench.runtime;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Draws per-second curves as a PNG with XChart: one line per variant, seconds since launch on the x axis.
 * Seconds without a value (NaN: nothing completed) are left out of a line rather than drawn as zero.
 */
final class CurveChart {
    private static final int WIDTH = 1_000;
    private static final int HEIGHT = 600;

    private CurveChart() {
    }

    /**
     * @param curves  label to per-second values (index i is second i+1 after launch)
     * @param logY    whether the y axis is logarithmic (latencies)
     */
    static void write(final Path png, final String title, final String yAxis, final Map<String, double[]> curves,
                      final boolean logY) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        ImageIO.setUseCache(false);
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("seconds since the engine and gateway were launched").yAxisTitle(yAxis).build();
        chart.getStyler().setYAxisLogarithmic(logY);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        chart.getStyler().setXAxisDecimalPattern("0");
        for (final Map.Entry<String, double[]> curve : curves.entrySet()) {
            final List<Double> x = new ArrayList<>();
            final List<Double> y = new ArrayList<>();
            final double[] values = curve.getValue();
            for (int i = 0; i < values.length; i++) {
                if (!Double.isNaN(values[i]) && (!logY || values[i] > 0)) {
                    x.add(i + 1.0);
                    y.add(values[i]);
                }
            }
            if (!x.isEmpty()) {
                final XYSeries series = chart.addSeries(curve.getKey(), x, y);
                series.setMarker(SeriesMarkers.CIRCLE);
            }
        }
        if (chart.getSeriesMap().isEmpty()) {
            chart.addSeries("no data", new double[] {1}, new double[] {1});
        }
        try {
            Files.createDirectories(png.toAbsolutePath().getParent());
            try (OutputStream out = Files.newOutputStream(png)) {
                BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write the chart " + png.toAbsolutePath(), e);
        }
    }
}
