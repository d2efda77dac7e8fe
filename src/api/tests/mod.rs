mod contract;
mod releases;
mod surface;
