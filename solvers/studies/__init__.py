"""Studies over many deals: win-rate estimates, the results store, seed ranges, statistics,
process and Dask runners, reports and plots."""
